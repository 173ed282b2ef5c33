"""Resolve OpenAPI schemas into small, self-contained JSON Schemas.

`SchemaResolver(document).resolve(schema, depth)` returns a schema with:

- internal `$ref`s (`#/components/...` JSON pointers, `~0`/`~1` and %-escapes) inlined;
  a `$ref` already on the current resolution stack becomes
  `{"type": "object", "x-recursive": "<RefName>"}`; an external or dangling `$ref` becomes
  `{"x-unresolved": "<ref>"}` (any value);
- `allOf` merged (properties and required unioned, later branches win on a clash, the
  outer schema's own keywords win over all branches);
- `oneOf` / `anyOf` kept as they are, each branch resolved (at most 10 branches);
- only the validation keywords that matter kept (`type`, `format`, `enum`, `default`,
  bounds, `pattern` when Python can compile it, `items`, `required`, ...); `description`
  cleaned and cut to 200 characters; OpenAPI 3.0 `nullable` dropped, a 3.1 type list
  reduced to its one non-null type; boolean `exclusiveMinimum` turned into the 2020-12
  numeric form;
- size bounds: an object nested deeper than `depth` property levels becomes
  `{"type": "object", "x-truncated": true}` (array `items` do not count as a level), an
  object keeps at most 60 properties (required ones first), an `enum` of more than 50
  values is replaced by `x-enum-sample` (its first 20).

Resolved `$ref`s are memoized per (ref, depth), so the multi-megabyte documents (Microsoft
Graph, GitHub, Stripe) resolve each shared schema once. Results are shared between
callers: treat them as read-only and copy before changing. Because a cut depends on the
stack at the time a ref is first resolved, results depend on resolution order; loaders
resolve in document order, so the output is still deterministic for a document.
"""

from __future__ import annotations

import json
import re
import warnings
from json.encoder import encode_basestring_ascii as _quote  # what json.dumps uses
from typing import Any
from urllib.parse import unquote

from compoworld.specs.limits import NO_DEADLINE, Deadline
from compoworld.specs.text import clean_text

MAX_PROPERTIES = 60
MAX_ENUM = 50
MAX_BRANCHES = 10
DESCRIPTION_CHARS = 200

_KEEP = frozenset({
    "type", "format", "default", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems",
    "multipleOf", "const", "readOnly",
})


def resolve_pointer(document: Any, ref: str) -> Any:
    """The value a local `#/a/b~1c` JSON pointer names; KeyError if it names nothing."""
    if not ref.startswith("#"):
        raise KeyError(ref)
    node = document
    for raw in ref[1:].split("/")[1:]:
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(ref)
    return node


def json_safe(value: Any) -> Any:
    """A JSON-serializable copy of a keyword value (YAML may hold dates, sets, ...)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    return str(value)


def ref_name(ref: str) -> str:
    """Last segment of a pointer: `#/components/schemas/Pet` -> `Pet`."""
    return unquote(ref.rsplit("/", 1)[-1]).replace("~1", "/").replace("~0", "~")


def is_object_schema(schema: Any) -> bool:
    """Whether a schema describes a JSON object."""
    if not isinstance(schema, dict):
        return False
    return schema.get("type") == "object" or "properties" in schema


class SchemaResolver:
    """Resolves schemas of one document, with a memo shared by all its operations."""

    def __init__(self, document: dict[str, Any], deadline: Deadline = NO_DEADLINE) -> None:
        self.document = document
        self.deadline = deadline  # checked at every schema: resolution is where time goes
        self._memo: dict[tuple[str, int], dict[str, Any]] = {}
        self._stack: list[str] = []
        self._patterns: dict[str, bool] = {}
        # id(dict) -> (dict, serialized size); holding the dict keeps its id unique.
        self._sizes: dict[int, tuple[dict[str, Any], int]] = {}

    def size(self, value: Any) -> int:
        """`len(json.dumps(value))` of a (resolved) schema, computed once per shared dict."""
        if isinstance(value, dict):
            hit = self._sizes.get(id(value))
            if hit is not None and hit[0] is value:
                return hit[1]
            if any(isinstance(v, dict) or (isinstance(v, list) and v and isinstance(v[0], dict))
                   for v in value.values()):
                total = 2 + sum(len(_quote(str(k))) + 2 + self.size(v) for k, v in value.items())
                total += 2 * max(len(value) - 1, 0)
            else:  # a leaf schema: one C call
                total = len(json.dumps(value, default=str))
            self._sizes[id(value)] = (value, total)
            return total
        if isinstance(value, list):
            return 2 + sum(self.size(v) for v in value) + 2 * max(len(value) - 1, 0)
        if isinstance(value, str):
            return len(_quote(value))
        if value is None or value is True:
            return 4
        if value is False:
            return 5
        if isinstance(value, int | float):
            return len(json.dumps(value))
        return len(json.dumps(value, default=str))

    def deref(self, node: Any) -> Any:
        """Follow `$ref`s of a non-schema object (parameter, requestBody, response)."""
        seen: set[str] = set()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if ref in seen:
                return {}
            seen.add(ref)
            try:
                node = resolve_pointer(self.document, ref)
            except KeyError:
                return {}
        return node

    def resolve(self, schema: Any, depth: int = 4) -> dict[str, Any]:
        """A resolved copy of `schema`; object nesting below `depth` levels is truncated."""
        if schema is True or not isinstance(schema, dict):
            return {}
        self.deadline.check()
        ref = schema.get("$ref")
        if isinstance(ref, str):
            resolved = self._resolve_ref(ref, depth)
            extra = {k: v for k, v in schema.items() if k != "$ref"}
            if not extra:
                return resolved
            # OpenAPI 3.1 allows siblings next to $ref: treat them as an allOf.
            return self._merge([resolved, self._resolve_plain(extra, depth)], {}, depth)
        return self._resolve_plain(schema, depth)

    def _resolve_ref(self, ref: str, depth: int) -> dict[str, Any]:
        if ref in self._stack:
            return {"type": "object", "x-recursive": ref_name(ref)}
        key = (ref, depth)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        try:
            target = resolve_pointer(self.document, ref)
        except KeyError:
            return {"x-unresolved": ref}
        self._stack.append(ref)
        try:
            resolved = self.resolve(target, depth)
        finally:
            self._stack.pop()
        self._memo[key] = resolved
        return resolved

    def _resolve_plain(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        parts = schema.get("allOf")
        if isinstance(parts, list) and parts:
            own = {k: v for k, v in schema.items() if k != "allOf"}
            branches = [self.resolve(p, depth) for p in parts]
            if own:
                branches.append(self._resolve_plain(own, depth))
            return self._merge(branches, own, depth)
        if depth < 0 and (is_object_schema(schema) or "additionalProperties" in schema):
            return {"type": "object", "x-truncated": True}
        out: dict[str, Any] = {}
        for key in _KEEP:
            if key in schema:
                out[key] = json_safe(schema[key])
        self._normalize(schema, out)
        props = schema.get("properties")
        if isinstance(props, dict):
            listed = schema.get("required")
            required = [r for r in listed if isinstance(r, str)] if isinstance(listed, list) else []
            names = [n for n in required if n in props]
            names += [n for n in props if n not in names]
            out["properties"] = {
                str(n): self.resolve(props[n], depth - 1) for n in names[:MAX_PROPERTIES]
            }
            kept = [r for r in dict.fromkeys(required) if r in out["properties"]]
            if kept:
                out["required"] = kept
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            out["additionalProperties"] = self.resolve(extra, depth - 1)
        elif isinstance(extra, bool):
            out["additionalProperties"] = extra
        if "items" in schema:
            out["items"] = self.resolve(schema["items"], depth)
        for key in ("oneOf", "anyOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                out[key] = [self.resolve(b, depth) for b in branches[:MAX_BRANCHES]]
        return out

    def _normalize(self, schema: dict[str, Any], out: dict[str, Any]) -> None:
        kind = out.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null" and isinstance(k, str)]
            out["type"] = kinds[0] if len(kinds) == 1 else (kinds or "null")
        elif kind is not None and not isinstance(kind, str):
            del out["type"]
        if "properties" in schema and "type" not in out:
            out["type"] = "object"
        for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if isinstance(out.get(bound), bool):
                flag = out.pop(bound)
                if flag and isinstance(out.get(limit), int | float):
                    out[bound] = out.pop(limit)
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if key in out and (not isinstance(out[key], int | float) or isinstance(out[key], bool)):
                del out[key]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            if len(enum) <= MAX_ENUM:
                out["enum"] = json_safe(enum)
            else:
                out["x-enum-sample"] = json_safe(enum[:20])
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and self._compiles(pattern):
            out["pattern"] = pattern
        text = clean_text(schema.get("description"), DESCRIPTION_CHARS)
        if text:
            out["description"] = text
        if "format" in out and not isinstance(out["format"], str):
            del out["format"]

    def _compiles(self, pattern: str) -> bool:
        ok = self._patterns.get(pattern)
        if ok is None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    re.compile(pattern)
                ok = True
            except (re.error, RecursionError, OverflowError, ValueError):
                ok = False
            self._patterns[pattern] = ok
        return ok

    def _merge(
        self, branches: list[dict[str, Any]], own: dict[str, Any], depth: int
    ) -> dict[str, Any]:
        """Merge resolved allOf branches: properties and required unioned."""
        out: dict[str, Any] = {}
        props: dict[str, Any] = {}
        required: list[str] = []
        for branch in branches:
            for key, value in branch.items():
                if key == "properties" and isinstance(value, dict):
                    props.update(value)
                elif key == "required" and isinstance(value, list):
                    required.extend(value)
                elif key not in out or key in own:
                    out[key] = value
        if props:
            out.pop("x-truncated", None)
            out.pop("x-recursive", None)
            out["type"] = "object"
            names = [n for n in dict.fromkeys(required) if n in props]
            names += [n for n in props if n not in names]
            out["properties"] = {n: props[n] for n in names[:MAX_PROPERTIES]}
            kept = [r for r in dict.fromkeys(required) if r in out["properties"]]
            if kept:
                out["required"] = kept
        elif depth < 0 and out.get("type") == "object":
            return {"type": "object", "x-truncated": True}
        return out
