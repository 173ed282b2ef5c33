"""A payment card that is one card: its brand fields, its funding type and its BIN agree.

Fields are drawn one by one, so reviewers read a Square card with `"card_brand": "VISA"`
beside `"card_type": "MASTERCARD"` and a `bin` of `519908`. `card_rule` makes the first
brand field (`card_brand`, `network`) the card's brand: a second brand field says the same,
a `card_type` beside a brand field is the funding type (`CREDIT`, `DEBIT`, as Square and
Stripe use it) and the BIN starts with the brand's digits. Rewrites hash the value they
replace, so no later value of the world shifts.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from compoworld.graph.semtypes import split_words

Rule = Callable[[dict[str, Any], dict[str, Any] | None], None]

# Leading digits of each brand's card numbers (ISO/IEC 7812 IINs).
_PREFIXES = {"visa": ("4",), "mastercard": ("51", "52", "53", "55"), "amex": ("34", "37"),
             "discover": ("6011", "65")}
_ALIASES = {"visa": "visa", "mastercard": "mastercard", "master_card": "mastercard",
            "mc": "mastercard", "amex": "amex", "american_express": "amex",
            "discover": "discover"}
_FUNDING = ("CREDIT", "DEBIT", "CREDIT", "DEBIT", "PREPAID")


def card_brand(value: Any) -> str | None:
    """The brand a brand field holds (`VISA`, `American Express` -> `amex`), or None."""
    if not isinstance(value, str):
        return None
    return _ALIASES.get("_".join(split_words(value)))


def _hash(value: Any) -> int:
    return zlib.crc32(repr(value).encode())


def _bin_of(brand: str, old: Any) -> Any:
    """`old` (a BIN or first digits) begun with one of `brand`'s prefixes, its length kept."""
    if not isinstance(old, str) or not old.isdigit():
        return old
    prefixes = _PREFIXES[brand]
    if old.startswith(prefixes):
        return old
    head = prefixes[_hash(old) % len(prefixes)]
    return (head + old[len(head):])[:max(len(old), len(head))]


def _funding(old: Any, record: dict[str, Any]) -> str:
    """Credit, debit or prepaid, by the whole drawn card (its old brand alone is one of four)."""
    text = _FUNDING[_hash(record) % len(_FUNDING)]
    return text.lower() if isinstance(old, str) and old.islower() else text


def card_rule(kinds: dict[str, str], checks: dict[str, Callable[[Any], bool]]) -> Rule | None:
    """For an object with card fields of `kinds` (key -> `card_brand`, `card_bin`), a rule
    that makes them one card's; a field the caller gave, or a rewrite its schema rejects,
    keeps its value."""
    brands = [key for key, kind in kinds.items() if kind == "card_brand"]
    bins = [key for key, kind in kinds.items() if kind == "card_bin"]
    if not brands or len(brands) + len(bins) < 2:
        return None
    # the brand is the field named so; a `card_type` beside it is credit or debit
    first = next((key for key in brands if "type" not in split_words(key)), brands[0])
    funding = [key for key in brands if key != first and "type" in split_words(key)]
    copies = [key for key in brands if key not in (first, *funding)]

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        brand = card_brand(out.get(first))
        fixed = overrides.keys() if overrides else set()
        for key in (*funding, *copies, *bins):
            if key not in out or key in fixed:
                continue
            if key in funding:  # (a funding word already, or the schema's own, stays)
                value = _funding(out[key], out) if card_brand(out[key]) else out[key]
            elif key in copies:
                value = out[first] if brand else out[key]
            else:
                value = _bin_of(brand, out[key]) if brand else out[key]
            if value != out[key] and checks[key](value):
                out[key] = value

    return rule
