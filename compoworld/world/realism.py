"""A detector of values that do not look real: filler words and placeholder tokens.

`random_token(value, name, schema)` says whether a generated string is a *random token*:
a word of the filler list `words.WORDS` (`violet`, `ember`, `zenith`, alone or joined as
`violet-ember 12`), or a placeholder such as `zip_0005` (a short prefix and a zero-padded
number) in a field whose meaning is not an id. Values the schema itself offers (enum,
const, default, examples) are never random, whatever they read. `leaves` walks a value
alongside its schema and yields every string leaf with its field name and schema, so a
whole generated record can be scored field by field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from compoworld.graph.semtypes import split_words
from compoworld.world.values import schema_offers
from compoworld.world.words import WORDS

_FILLER = frozenset(WORDS)
_PLACEHOLDER = re.compile(r"[a-z]{2,6}_\d{3,5}")
_ID_WORDS = frozenset("id ids key token ref reference code slug handle cursor uid".split())


def random_token(value: Any, name: str = "", schema: dict[str, Any] | None = None) -> bool:
    """Whether `value` is a filler word (or words) or an id-like placeholder out of place."""
    if not isinstance(value, str) or not value:
        return False
    if schema and value in schema_offers(schema):
        return False
    words = re.findall(r"[a-z]+|\d+", value.lower())
    letters = [w for w in words if not w.isdigit()]
    if letters and all(w in _FILLER for w in letters) and len("".join(letters)) >= 3:
        return True
    if _PLACEHOLDER.fullmatch(value):
        return not _ID_WORDS & set(split_words(name))
    return False


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    out = [schema]
    for word in ("allOf", "oneOf", "anyOf"):
        for branch in schema.get(word) or ():
            if isinstance(branch, dict):
                out.extend(_branches(branch))
    return out


def leaves(value: Any, schema: Any, name: str = "") -> Iterator[tuple[str, dict[str, Any], Any]]:
    """(field name, field schema, value) for every scalar leaf of `value`."""
    schema = schema if isinstance(schema, dict) else {}
    parts = _branches(schema)
    if isinstance(value, dict):
        for key, sub in value.items():
            found: dict[str, Any] = {}
            for part in parts:
                props = part.get("properties")
                if isinstance(props, dict) and isinstance(props.get(key), dict):
                    found = props[key]
                    break
            else:
                extra = next((p["additionalProperties"] for p in parts
                              if isinstance(p.get("additionalProperties"), dict)), {})
                found = extra
            yield from leaves(sub, found, key)
    elif isinstance(value, list):
        items = next((p["items"] for p in parts if isinstance(p.get("items"), dict)), {})
        for sub in value:
            yield from leaves(sub, items, name)
    else:
        leaf = next((p for p in parts if schema_offers(p)), schema)
        yield name, leaf, value
