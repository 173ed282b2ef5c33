"""Typed values in a call's result: what a later call can take, and how to name the item.

A tool's `return_types` maps typed paths (`data[].email`, `[].id`, `owner.email`) to
semantic types. `find_values` resolves them against an actual result into concrete values
(`data[2].email`), each with a `Selector` when it sits inside a list of several items: a
sibling field whose value names that item uniquely (`the contact whose name is "Ana
Ruiz"`), which the instruction states so the agent can find the same item. A value in a
list of several items with no such field cannot be referred to, so it is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from compoworld.compose.naming import render_value
from compoworld.compose.records import Selector
from compoworld.graph.semtypes import split_words
from compoworld.reward.rubric import value_in_text

MAX_ITEMS = 20  # list items looked at per list
# Sibling fields that name an item, best first (by semantic type, then by field name).
# What names one item of a list in words: a URL or a city is no name of a record.
# (no phone: "the company in Avaza whose phone is ..." is nobody's way to name one)
NAMING_TYPES = ("person_name", "title", "email", "company", "username", "filename")
NAMING_FIELDS = ("name", "title", "display_name", "full_name", "subject", "label", "email")


@dataclass(frozen=True, slots=True)
class Found:
    """One value of a result: its typed path, concrete path, value, type and selector."""

    field: str
    path: str
    value: Any
    type: str
    selector: Selector | None


def usable(value: Any) -> bool:
    """Whether a value can be passed on or asked for: a non-empty string or a number."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, str):
        return 2 <= len(value.strip()) <= 200
    return isinstance(value, int | float)


def find_values(result: Any, outputs: dict[str, str]) -> list[Found]:
    """Every usable scalar value of `result` at a typed path of `outputs` (sorted)."""
    found: list[Found] = []
    for typed, kind in sorted(outputs.items()):
        segments = typed.split(".") if typed else []
        for path, value, item in _resolve(result, segments, "", None):
            if not usable(value):
                continue
            selector = None
            if item is not None:
                items, index, inner = item
                if len(items) > 1:
                    selector = _selector(items, index, inner, outputs, typed)
                    if selector is None:
                        continue
            found.append(Found(typed, path, value, kind, selector))
    return found


def named_alone(result: Any, value: Found, outputs: dict[str, str]) -> Found:
    """`value` named by a field of its item even where its list holds it alone (which
    `find_values` leaves unnamed: the only item needs no name in a read of it): a lookup
    still says which record it takes ("the section titled "Backlog" of ...")."""
    if value.selector is not None:
        return value
    for path, _, item in _resolve(result, value.field.split("."), "", None):
        if path == value.path and item is not None:
            items, index, inner = item
            return Found(value.field, value.path, value.value, value.type,
                         _selector(items, index, inner, outputs, value.field))
    return value


def _resolve(value: Any, segments: list[str], path: str, item: Any):
    """Yield (concrete path, value, (list, index, path inside the item) or None)."""
    if not segments:
        yield path, value, item
        return
    head, rest = segments[0], segments[1:]
    name, is_list = (head[:-2], True) if head.endswith("[]") else (head, False)
    if name:
        if not isinstance(value, dict) or name not in value:
            return
        value = value[name]
        path = f"{path}.{name}" if path else name
        item = (item[0], item[1], f"{item[2]}.{name}" if item[2] else name) if item else None
    if not is_list:
        yield from _resolve(value, rest, path, item)
        return
    if not isinstance(value, list):
        return
    if item is not None and len(item[0]) > 1:  # a list inside a list item: too deep to
        if value and primary_list(name):  # name in words, but for a record's first email or
            yield from _resolve(value[0], rest, f"{path}[0]",  # phone, its own (Apideck's
                                (item[0], item[1], f"{item[2]}[]"))  # `emails[0].email`)
        return
    for index, element in enumerate(value[:MAX_ITEMS]):
        yield from _resolve(element, rest, f"{path}[{index}]", (value, index, ""))


_CHANNEL_LISTS = frozenset({("emails",), ("email", "addresses"), ("phones",),
                            ("phone", "numbers"), ("websites",)})


def primary_list(name: str) -> bool:
    """Whether a record's list field holds its ways to reach it, the first its main one
    (`emails`, `phone_numbers`; no `addresses`, which name other people too)."""
    return tuple(split_words(name)) in _CHANNEL_LISTS


def _selector(
    items: list[Any], index: int, inner: str, outputs: dict[str, str], typed: str
) -> Selector | None:
    """A top-level field of item `index` whose value no other item shares."""
    element = items[index]
    if not isinstance(element, dict):
        return None
    prefix = typed[: len(typed) - len(inner)] if inner else typed
    types = {p[len(prefix):]: t for p, t in outputs.items() if p.startswith(prefix)}
    own = inner.split(".")[0]
    def naming(key: str) -> tuple[int, int, bool]:  # (best first)
        return (_rank(types.get(key, ""), NAMING_TYPES), _rank(key.lower(), NAMING_FIELDS),
                not document_number(key, element[key]))

    ranked = sorted(
        (key for key, value in element.items()  # (nobody knows a company by its fax)
         if key != own and isinstance(value, str) and len(value.strip()) >= 3
         and not {"fax", "phone", "mobile", "tel"} & set(split_words(key))),
        key=lambda k: (naming(k), k),
    )
    for key in ranked:
        if naming(key) == (len(NAMING_TYPES), len(NAMING_FIELDS), True):
            break  # only naming fields: an opaque code does not name an item in words
        value = element[key]
        others = [e.get(key) for i, e in enumerate(items[:MAX_ITEMS])
                  if i != index and isinstance(e, dict)]
        if value not in others:
            return Selector(field=key, value=value)
    nested = _nested_selector(items, index, element, types, own)
    if nested is not None:
        return nested
    # a company's name no other item shares names its own item: the company "Fabrikam" is
    # the one named "Fabrikam" (with no phone to name it by, its name could go nowhere)
    value = element.get(own)
    if own and isinstance(value, str) and len(value.strip()) >= 3 and (
            types.get(own) == "company") and value not in [
            e.get(own) for i, e in enumerate(items[:MAX_ITEMS]) if i != index
            and isinstance(e, dict)]:
        return Selector(field=own, value=value)
    return None


# What a record is filed under, not what it is called: "the project whose default account
# task type name is "Regional Project"" names a project by its task type's name.
_KINDS = frozenset("category type group tag label status stage kind class segment tier "
                   "level".split())


def names_its_kind(key: str) -> bool:
    """Whether a field names the category or type a record is filed under
    (`ProjectCategoryName`, `DefaultAccountTaskTypeName`), no name of the record's own."""
    words = split_words(key)
    return len(words) > 1 and words[-1] in ("name", "title") and bool(set(words[:-1]) & _KINDS)


# The types a field one level down may name its item by: who a payment, a transfer or an
# order is from (`customer.email`, `user.legal_name`, `billing_details.name`).
_NESTED_NAMING = ("person_name", "email", "company")


def _nested_selector(items: list[Any], index: int, element: dict[str, Any],
                     types: dict[str, str], own: str) -> Selector | None:
    """A field of an object of item `index` (`user.legal_name`) whose value names a person
    or company no other item shares: a bank transfer or a charge has no name of its own,
    and a list of them gave nothing a request could name one by (Plaid's transfers and
    Square's payments began no walk), though "the transfer from Oscar Smith" names it."""
    for key in sorted(element):
        inner = element[key]
        if key == own or not isinstance(inner, dict):
            continue
        for sub in sorted(inner, key=lambda k: (_rank(types.get(f"{key}.{k}", ""),
                                                      _NESTED_NAMING), k)):
            value = inner[sub]
            if types.get(f"{key}.{sub}") not in _NESTED_NAMING or not isinstance(value, str) \
                    or len(value.strip()) < 3:
                continue
            others = [e.get(key, {}).get(sub) for i, e in enumerate(items[:MAX_ITEMS])
                      if i != index and isinstance(e, dict) and isinstance(e.get(key), dict)]
            if value not in others:
                return Selector(field=f"{key}.{sub}", value=value)
    return None


# The documents a business names by their number: "receipt CHA-2024-7132", "invoice
# INV-0042", "order ORD-2025-0310". (No account, card, tax or phone number: those name
# no document, and nobody asks for "the payment whose card number is ...".)
_NUMBERED = frozenset({"invoice", "receipt", "order", "bill", "quote", "estimate", "ticket",
                       "case", "booking", "confirmation", "document", "credit", "note",
                       "purchase", "delivery", "shipment", "tracking", "reference"})
_NUMBER_WORDS = frozenset({"number", "no", "reference", "ref"})
_DOCUMENT_CODE = re.compile(r"^#?[A-Z]{2,6}(?:-[A-Z0-9]{2,8}){1,3}$")


def document_number(key: str, value: Any) -> bool:
    """Whether field `key` holding `value` is the number a document is known by: a
    receipt's `receipt_number` "CHA-2024-7132", an invoice's bare `number` "INV-0042".
    A Stripe charge names no person and no title; without its number a list of them
    named none, and its customer's email could be sent nothing."""
    words = split_words(key)
    return bool(words) and words[-1] in _NUMBER_WORDS and isinstance(value, str) \
        and (len(words) == 1 or words[-2] in _NUMBERED) \
        and _DOCUMENT_CODE.match(value.strip()) is not None


def _rank(value: str, order: tuple[str, ...]) -> int:
    return order.index(value) if value in order else len(order)


def value_at(result: Any, path: str) -> Any:
    """The value at a concrete path (`data[2].email`); KeyError when it is not there."""
    value = result
    for segment in path.split(".") if path else []:
        name, _, rest = segment.partition("[")
        if name:
            if not isinstance(value, dict) or name not in value:
                raise KeyError(path)
            value = value[name]
        while rest:
            number, _, rest = rest.partition("]")
            rest = rest.removeprefix("[")
            if not number.isdigit() or not isinstance(value, list) or int(number) >= len(value):
                raise KeyError(path)
            value = value[int(number)]
    return value


def mentions(text: str, value: Any) -> bool:
    """Whether `value` can be read in `text`: strings of 3+ characters, case-insensitive;
    numbers of 3+ characters in any plain form, not inside a longer number. Shorter values
    are too common to count as a leak (`2` in "the 2 invoices")."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int | float):  # read as the reward reads answers (`1,234`, `12.50`)
        return len(render_value(value)) >= 3 and value_in_text(value, text)
    rendered = value if isinstance(value, str) else render_value(value)
    return len(rendered) >= 3 and rendered.lower() in text.lower()
