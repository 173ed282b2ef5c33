"""Schema resolution: $ref pointers, allOf merging, cycles and size bounds."""

from __future__ import annotations

import json

import pytest

from compoworld.specs.refs import MAX_PROPERTIES, SchemaResolver, resolve_pointer


def doc(**schemas: dict) -> dict:
    return {"components": {"schemas": schemas}}


def test_nested_refs_are_inlined() -> None:
    resolver = SchemaResolver(doc(
        Outer={"type": "object", "properties": {"inner": {"$ref": "#/components/schemas/Inner"}}},
        Inner={"type": "object", "properties": {"n": {"$ref": "#/components/schemas/Num"}}},
        Num={"type": "integer", "minimum": 0},
    ))
    out = resolver.resolve({"$ref": "#/components/schemas/Outer"})
    assert out["properties"]["inner"]["properties"]["n"] == {"type": "integer", "minimum": 0}
    assert "$ref" not in json.dumps(out)


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("#/components/schemas/a~1b", "slash"),
        ("#/components/schemas/a~0b", "tilde"),
        ("#/components/schemas/a%20b", "space"),
    ],
)
def test_escaped_pointers(ref: str, expected: str) -> None:
    document = doc(**{"a/b": {"title": "slash"}, "a~b": {"title": "tilde"},
                      "a b": {"title": "space"}})
    assert resolve_pointer(document, ref)["title"] == expected


def test_cyclic_ref_is_cut_with_its_name() -> None:
    resolver = SchemaResolver(doc(
        Node={"type": "object", "properties": {
            "value": {"type": "string"},
            "next": {"$ref": "#/components/schemas/Node"},
        }},
    ))
    out = resolver.resolve({"$ref": "#/components/schemas/Node"})
    assert out["properties"]["next"] == {"type": "object", "x-recursive": "Node"}


def test_mutual_recursion_terminates() -> None:
    resolver = SchemaResolver(doc(
        A={"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
        B={"type": "array", "items": {"$ref": "#/components/schemas/A"}},
    ))
    out = resolver.resolve({"$ref": "#/components/schemas/A"})
    assert out["properties"]["b"]["items"] == {"type": "object", "x-recursive": "A"}


def test_all_of_unions_properties_and_required() -> None:
    resolver = SchemaResolver(doc(
        Base={"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}},
    ))
    out = resolver.resolve({
        "description": "A pet.",
        "allOf": [
            {"$ref": "#/components/schemas/Base"},
            {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
        ],
    })
    assert out["type"] == "object"
    assert list(out["properties"]) == ["id", "name"]
    assert out["required"] == ["id", "name"]
    assert out["description"] == "A pet."


def test_one_of_branches_are_kept_and_resolved() -> None:
    cat = {"type": "object", "properties": {"meow": {"type": "boolean"}}}
    resolver = SchemaResolver(doc(Cat=cat))
    out = resolver.resolve({"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"type": "string"}]})
    assert out["oneOf"][0]["properties"]["meow"] == {"type": "boolean"}
    assert out["oneOf"][1] == {"type": "string"}


def test_depth_cap_truncates_deep_objects() -> None:
    schema: dict = {"type": "string"}
    for level in range(6):
        schema = {"type": "object", "properties": {f"l{level}": schema}}
    out = SchemaResolver({}).resolve(schema, depth=2)
    deep = out["properties"]["l5"]["properties"]["l4"]["properties"]["l3"]
    assert deep == {"type": "object", "x-truncated": True}


def test_property_and_enum_caps_keep_required_first() -> None:
    props = {f"p{i}": {"type": "string"} for i in range(100)}
    out = SchemaResolver({}).resolve(
        {"type": "object", "required": ["p99"], "properties": props,
         "additionalProperties": {"type": "string", "enum": list(range(80))}}
    )
    assert len(out["properties"]) == MAX_PROPERTIES
    assert next(iter(out["properties"])) == "p99"
    assert out["required"] == ["p99"]
    assert "enum" not in out["additionalProperties"]
    assert out["additionalProperties"]["x-enum-sample"] == list(range(20))


def test_keywords_kept_and_openapi_quirks_normalized() -> None:
    out = SchemaResolver({}).resolve({
        "type": ["string", "null"], "format": "date", "default": "2024-01-01",
        "pattern": "^[0-9-]+$", "example": "x", "xml": {"name": "d"}, "nullable": True,
        "description": "  A <b>date</b>\n\n  value. ",
    })
    assert out == {"type": "string", "format": "date", "default": "2024-01-01",
                   "pattern": "^[0-9-]+$", "description": "A date value."}
    assert SchemaResolver({}).resolve(
        {"type": "number", "minimum": 0, "exclusiveMinimum": True}
    ) == {"type": "number", "exclusiveMinimum": 0}


def test_invalid_pattern_is_dropped_and_dangling_ref_marked() -> None:
    resolver = SchemaResolver({})
    assert "pattern" not in resolver.resolve({"type": "string", "pattern": "(unclosed"})
    assert resolver.resolve({"$ref": "#/nowhere"}) == {"x-unresolved": "#/nowhere"}
    assert resolver.resolve({"$ref": "other.json#/x"}) == {"x-unresolved": "other.json#/x"}


def test_size_matches_serialized_length() -> None:
    resolver = SchemaResolver({})
    schema = resolver.resolve({"type": "object", "properties": {
        "a": {"type": "string", "enum": ["x", "é", 'q"'], "default": None},
        "b": {"type": "number", "maximum": 1.5, "default": True},
    }})
    assert resolver.size(schema) == len(json.dumps(schema))
