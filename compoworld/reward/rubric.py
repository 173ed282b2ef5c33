"""Evaluating a task's rubric on any run: each criterion against the run's start and end
states (service name -> `State`) and its final answer (DESIGN.md, "CFRR").

Semantics, per criterion kind:
- `record_created`: some record *created* in the run (its id is in the end state's
  collection and not in the start state's, so a pre-existing record never counts) has every
  key field equal to the expected value (`json_equal`), and every field named in the
  optional `written` (a message's body: the agent's own words) holds text of two words at
  least, and names each text of the optional `mentions` (`fact_in_text`: the ticket
  "Login delay" a reply is about; a date or time by its day; a clock time `15:00` in any
  of its forms, `clock_in_text`), and says one of the words of
  the optional `topic` (a welcome says "welcome" or "welcoming"; a receipt, "receipt").
  A `written` that is not a list of names is malformed. An optional `about` (words) is what
  a booking is for: one of its words is in a text of the record, in any field ("Account
  review" as its title or in its notes).
  An optional `contains` (field names) checks those key fields by what they hold: a text
  carried into them (an issue's body posted to a channel) may sit among words of the agent's.
  An optional `alternatives` (key field -> other field names) lets the value sit in another
  field of the same kind: a customer's name in `customerName` where the gold call filled
  `contactName`. An optional `name_shapes` (`full`: the fields that take a whole name,
  `first`, `last`: the first- and last-name fields) lets a person's name sit in the other
  shape the create tool takes: `name` 'Ana Ruiz' passes as `firstname` 'Ana' and `lastname`
  'Ruiz', and the other way round (`whole_name`; case and spacing aside); a last name
  checked alone passes as a whole name ending in it (a first name, starting with it), so
  long as the record leaves the checked name fields it did not fill empty (no
  contradicting name). An optional `by_reference` (key field -> {`field`, `collection`,
  `key`}) lets the record name the value's holder instead: a booking's `customerId` naming
  a record of `collection` (in the end state) whose `key` is the checked email.
- `field_equals`: the record with that id exists in the end state and each named field
  equals its value (a missing field reads as null). An empty `fields` is malformed.
- `record_deleted`: the id existed in the start state and does not in the end state.
- `answer_contains`: the value's text appears in the answer (`value_in_text`) and none of
  its `competitors` does (the other candidates the value was picked from: an answer that
  dumps everything read names them too). A criterion without `competitors` checks only
  the value; a `competitors` that is not a list is malformed.
- `no_collateral_change`: every service's start-to-end diff touches only what `allowed`
  lists: per collection at most `created` new records, updated and deleted ids within
  the listed ones; a change to an unlisted service or collection fails. A record created
  and then edited in the run shows in the diff once, as created.
- `record_untouched`: no record created or changed in any service holds one of `values`
  as a text (a near-miss's email or phone: what a selection left alone stays so).

A criterion whose service is missing from either state, or whose params are malformed,
is False: nothing raises out of `evaluate_criterion` or `evaluate_rubric`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from compoworld.compose.records import Criterion
from compoworld.world.state import State, diff, string_leaves

States = dict[str, State]


_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                      r"(?:Z|[+-]\d{2}:?\d{2})?")


def _instant(text: str) -> datetime | None:
    """The moment an ISO date-time names (one without an offset read as UTC), or None."""
    if not _INSTANT.fullmatch(text):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def json_equal(left: Any, right: Any) -> bool:
    """JSON equality: 5 == 5.0, booleans never equal numbers, strings compared after strip
    (two ISO date-times as the moments they name: `2025-03-12T12:30:00Z` is
    `2025-03-12T12:30:00+00:00`, since a request may say the time as a person does), lists
    item by item, objects key by key."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    if isinstance(left, str) and isinstance(right, str):
        left, right = left.strip(), right.strip()
        if left == right:
            return True
        moments = _instant(left), _instant(right)
        return None not in moments and moments[0] == moments[1]
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    return left is None and right is None


def _collapse(text: str) -> str:
    return " ".join(text.split()).lower()


def _number_forms(number: int | float) -> set[str]:
    """The plain ways a number is written: 12, 1,200, 12.5, 12.50; 12.0 also as 12."""
    if isinstance(number, int):
        return {str(number), f"{number:,}"}
    if number.is_integer():
        whole = int(number)
        return {str(whole), f"{whole:,}", f"{number:.1f}", f"{number:.2f}", f"{number:,.2f}"}
    forms = {str(number), f"{number:,}"}
    if round(number, 2) == number:
        forms |= {f"{number:.2f}", f"{number:,.2f}"}
    return forms


def _number_in_text(number: int | float, text: str) -> bool:
    if isinstance(number, float) and not math.isfinite(number):
        return False
    # Digit boundaries: 12 is not inside 123, 3.12, 1,120 or 12.5.
    alternatives = "|".join(re.escape(form) for form in sorted(_number_forms(number), key=len,
                                                                reverse=True))
    pattern = rf"(?<!\d)(?<!\d[.,])(?:{alternatives})(?!\d)(?![.,]\d)"
    return re.search(pattern, text) is not None


def _string_in_text(value: str, text: str) -> bool:
    needle = _collapse(value)
    if not needle:
        return False
    # Word boundaries where the value starts or ends with a word character: "Ann" is not
    # found inside "Joanne", nor "12" inside "123".
    before = r"(?<!\w)" if re.match(r"\w", needle[0]) else ""
    after = r"(?!\w)" if re.match(r"\w", needle[-1]) else ""
    return re.search(before + re.escape(needle) + after, _collapse(text)) is not None


def value_in_text(value: Any, text: str) -> bool:
    """Whether an answer text reports a value: case-insensitive, whitespace collapsed.

    Strings match at word boundaries; numbers in their plain forms at digit boundaries;
    a list (or object) needs every item (value) reported. Booleans and null are never
    answer values, so they never match (a yes/no cannot be found by text search).
    """
    if isinstance(value, bool) or value is None or not isinstance(text, str):
        return False
    if isinstance(value, int | float):
        return _number_in_text(value, " ".join(text.split()))
    if isinstance(value, str):
        return _string_in_text(value, text)
    if isinstance(value, list | dict):
        items = list(value.values()) if isinstance(value, dict) else value
        return bool(items) and all(value_in_text(item, text) for item in items)
    return False


_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                      r"(?:Z|[+-]\d{2}:?\d{2})?)?")
_MONTHS = ("January February March April May June July August September October November "
           "December").split()


def day_forms(value: str) -> list[str]:
    """The ways a message says the day of an ISO date or time (`2026-12-05T10:00:00Z`):
    `2026-12-05`, `December 5`, `5 December`, `Dec 5`, `5 Dec`; [] for no such value."""
    match = _ISO_DAY.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None or not 1 <= int(match[2]) <= 12:
        return []
    month, day = _MONTHS[int(match[2]) - 1], int(match[3])
    return [f"{match[1]}-{match[2]}-{match[3]}", f"{month} {day}", f"{day} {month}",
            f"{month[:3]} {day}", f"{day} {month[:3]}"]


def fact_in_text(fact: Any, text: Any) -> bool:
    """Whether a message names a fact: its text (`value_in_text`), for a date or time, its
    day in any of `day_forms` ("the meeting on December 5" names 2026-12-05T10:00Z), for
    a clock time (`15:00`), that time in any form (`clock_in_text`), and for an amount in
    a currency (`49 EUR`), any of `money_forms` ("€49")."""
    if value_in_text(fact, text):
        return True
    if isinstance(fact, str) and CLOCK.fullmatch(fact):
        return clock_in_text(fact, text)
    if isinstance(fact, str) and isinstance(text, str) and (forms := money_forms(fact)):
        return any(_string_in_text(form, text) for form in forms)
    return isinstance(text, str) and any(_string_in_text(form, text)
                                         for form in day_forms(fact))


# an amount in a currency as a check names it (`49 EUR`, `EUR 49`), and as people write
# it: a symbol before or after, the code first, or the currency's name
_MONEY = re.compile(r"(?:(\d+(?:[.,]\d+)?) ?([A-Z]{3})|([A-Z]{3}) ?(\d+(?:[.,]\d+)?))")
_SYMBOLS = {"EUR": ("€", "euro"), "USD": ("$", "dollar"), "GBP": ("£", "pound"),
            "JPY": ("¥", "yen"), "INR": ("₹", "rupee"), "AUD": ("A$", "dollar"),
            "CAD": ("C$", "dollar"), "CHF": ("CHF", "franc")}


def money_forms(fact: str) -> list[str]:
    """`49 EUR` as a message may say it: `€49`, `€ 49`, `49€`, `EUR 49`, `49 euros`, and
    with cents (`€49.00`); [] for a fact that is no amount in a currency."""
    match = _MONEY.fullmatch(fact.strip())
    if match is None:
        return []
    amount, code = (match[1], match[2]) if match[1] else (match[4], match[3])
    amounts = [amount] + ([f"{amount}.00", f"{amount},00"] if amount.isdigit() else [])
    symbol, name = _SYMBOLS.get(code, (code, ""))
    forms = [form for a in amounts for form in (
        f"{symbol}{a}", f"{symbol} {a}", f"{a}{symbol}", f"{a} {symbol}", f"{code} {a}",
        f"{a} {code}", f"{code}{a}")]
    if name:
        forms += [f"{a} {name}{'' if name == 'yen' else 's'}" for a in amounts]
    return forms


CLOCK = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")  # a clock time as a check names it
# a clock time as a message says it: 15:00, 15h00, 3:00 pm, 3.30 pm, 3pm, 3 p.m. (not
# 15.00 alone: an amount)
_SAID_CLOCK = re.compile(r"(?<![\w:.])(\d{1,2})(?:([:.h])(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?"
                         r"(?![\w:])", re.IGNORECASE)


def clock_forms(clock: str) -> list[str]:
    """`15:00` as a check's description gives it: itself and on a 12-hour clock (`3 pm`,
    `9:30 am`)."""
    hour, minute = int(clock[:2]), clock[3:]
    twelve = f"{hour % 12 or 12}{'' if minute == '00' else ':' + minute}"
    return [clock, f"{twelve} {'pm' if hour >= 12 else 'am'}"]


def clock_in_text(clock: str, text: Any) -> bool:
    """Whether a message says the clock time `clock` (`15:00`): as `15:00`, `15.00`,
    `15h00`, `3:00 pm`, `3pm` or `3 p.m.` (a bare `3` or `15`, or `15.00`, is no time)."""
    if not isinstance(text, str):
        return False
    want = int(clock[:2]) * 60 + int(clock[3:])
    for match in _SAID_CLOCK.finditer(text):
        hour, minute, half = int(match[1]), match[3], (match[4] or "").lower()
        if not half and (minute is None or match[2] == "."):
            continue
        if half:
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if half.startswith("p") else 0)
        if hour * 60 + int(minute or 0) == want:
            return True
    return False


def _states(criterion: Criterion, start: States, end: States) -> tuple[State, State]:
    service = criterion.service
    return start[service], end[service]  # KeyError on a missing service: False


def _name(params: dict[str, Any], key: str) -> str:
    value = params[key]
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise TypeError(f"{key} must be a string")
    return str(value)


def _fields(params: dict[str, Any]) -> dict[str, Any]:
    fields = params["fields"]
    if not isinstance(fields, dict):
        raise TypeError("fields must be an object")
    return fields


def _name_shapes(params: dict[str, Any]) -> dict[str, Any]:
    shapes = params.get("name_shapes", {"full": [], "first": "", "last": ""})
    if not (isinstance(shapes, dict) and isinstance(shapes.get("full"), list)
            and all(isinstance(name, str) for name in shapes["full"])
            and isinstance(shapes.get("first"), str) and isinstance(shapes.get("last"), str)):
        raise TypeError("name_shapes must give full (a list), first and last field names")
    return shapes


def whole_name(fields: dict[str, Any], shapes: dict[str, Any]) -> str | None:
    """The whole name of the person a criterion's name fields check: its full-name field's
    value, else its first and last name; None where they give no whole name (a last name
    alone)."""
    whole = next((fields[name] for name in shapes["full"] if name in fields), None)
    if whole is None and shapes["first"] in fields and shapes["last"] in fields:
        whole = f"{fields[shapes['first']]} {fields[shapes['last']]}"
    return whole if isinstance(whole, str) and whole.strip() else None


def _blank(value: Any) -> bool:
    return value is None or isinstance(value, str) and not value.strip()


def _names(held: Any, fields: dict[str, Any], shapes: dict[str, Any]) -> bool:
    """Whether a whole name a record holds is the checked person's: the checked whole name,
    or where only a first (last) name is checked, a name starting (ending) with it."""
    if not isinstance(held, str):
        return False
    words, whole = _collapse(held).split(), whole_name(fields, shapes)
    if whole is not None:
        return _same_text(held, whole)
    first, last = fields.get(shapes["first"]), fields.get(shapes["last"])
    if isinstance(first, str) and first.strip():
        part = _collapse(first).split()
        return words[:len(part)] == part
    if isinstance(last, str) and last.strip():
        part = _collapse(last).split()
        return words[-len(part):] == part
    return False


def _named_as(record: dict[str, Any], fields: dict[str, Any], shapes: dict[str, Any]) -> bool:
    """Whether a record holds the checked person's name in either shape (one full-name
    field, or first and last name), and no other value in a checked name field."""
    first, last = record.get(shapes["first"]), record.get(shapes["last"])
    held = [record.get(name) for name in shapes["full"]]
    if isinstance(first, str) and isinstance(last, str):
        held.append(f"{first} {last}")
    checked = [name for name in (*shapes["full"], shapes["first"], shapes["last"])
               if name in fields]
    return any(_names(name, fields, shapes) for name in held) and all(
        _blank(record.get(name)) or _same_text(record.get(name), fields[name])
        for name in checked)


def _same_text(left: Any, right: Any) -> bool:
    """JSON equality, texts compared case-insensitively ('ana ruiz' is 'Ana Ruiz')."""
    if isinstance(left, str) and isinstance(right, str):
        return _collapse(left) == _collapse(right)
    return json_equal(left, right)


def _texts(value: Any, depth: int = 3) -> list[str]:
    """The texts a record holds, a few levels into its objects and lists."""
    if isinstance(value, str):
        return [value]
    if depth and isinstance(value, dict | list):
        items = value.values() if isinstance(value, dict) else value
        return [text for item in items for text in _texts(item, depth - 1)]
    return []


_LEAF_DEPTH = 4
_LEAF_ITEMS = 20


def with_leaves(record: dict[str, Any]) -> dict[str, Any]:
    """A record with the leaves of its objects beside it, by concrete path: a sent
    message's `message.to[0].email`, an event's `attendees[0].email`. What a call gave
    inside an object parameter is checked where the call put it."""
    out = dict(record)

    def add(path: str, value: Any, depth: int) -> None:
        if isinstance(value, dict) and depth:
            for key, inner in value.items():
                add(f"{path}.{key}", inner, depth - 1)
        elif isinstance(value, list) and depth and any(isinstance(v, dict) for v in value):
            for index, inner in enumerate(value[:_LEAF_ITEMS]):
                add(f"{path}[{index}]", inner, depth - 1)
        elif path not in out:
            out[path] = value

    for name, value in record.items():
        if isinstance(value, dict | list):
            add(name, value, _LEAF_DEPTH)
    return out


def _by_path(names: Any) -> bool:
    """Whether a criterion names a field inside an object (`message.to[0].email`): only
    then are the records it reads given their leaves (`with_leaves`)."""
    return any("." in name or "[" in name for name in names)


def _record_created(criterion: Criterion, start: States, end: States, answer: str) -> bool:
    before, after = _states(criterion, start, end)
    collection = _name(criterion.params, "collection")
    fields = _fields(criterion.params)
    written = criterion.params.get("written", [])
    if not isinstance(written, list) or not all(isinstance(name, str) for name in written):
        raise TypeError("written must be a list of field names")
    alternatives = criterion.params.get("alternatives", {})
    if not isinstance(alternatives, dict) or not all(
            isinstance(names, list) and all(isinstance(n, str) for n in names)
            for names in alternatives.values()):
        raise TypeError("alternatives must map field names to lists of field names")
    mentions = criterion.params.get("mentions", [])
    if not isinstance(mentions, list) or not all(isinstance(m, str) for m in mentions):
        raise TypeError("mentions must be a list of texts")
    topic = criterion.params.get("topic", [])
    if not isinstance(topic, list) or not all(isinstance(w, str) and w for w in topic):
        raise TypeError("topic must be a list of words")
    about = criterion.params.get("about", [])
    if not isinstance(about, list) or not all(isinstance(w, str) and w for w in about):
        raise TypeError("about must be a list of words")
    shapes = _name_shapes(criterion.params)
    named = {shapes["first"], shapes["last"], *shapes["full"]}
    referred = criterion.params.get("by_reference", {})
    if not isinstance(referred, dict) or not all(
            isinstance(ref, dict) and all(isinstance(ref.get(k), str)
                                          for k in ("field", "collection", "key"))
            for ref in referred.values()):
        raise TypeError("by_reference must map field names to {field, collection, key}")

    contains = criterion.params.get("contains", [])
    if not isinstance(contains, list) or not all(isinstance(n, str) for n in contains):
        raise TypeError("contains must be a list of field names")

    def holds(record: dict[str, Any], name: str) -> bool:
        if any(json_equal(record.get(field), fields[name])
               for field in (name, *alternatives.get(name, ()))):
            return True
        if name in contains and any(value_in_text(fields[name], record.get(field))
                                    for field in (name, *alternatives.get(name, ()))):
            return True  # a body carried into a post, with words of the agent's around it
        ref = referred.get(name)  # the value's holder, named by its id
        holder = after.records(ref["collection"]).get(str(record.get(ref["field"]))) \
            if ref and record.get(ref["field"]) is not None else None
        return holder is not None and json_equal(holder.get(ref["key"]), fields[name])

    old = before.records(collection)
    new = after.records(collection)
    leaves = _by_path([*fields, *written, *named, *(ref["field"] for ref in referred.values()),
                       *(n for ns in alternatives.values() for n in ns)])
    return any(
        all(holds(record, name) for name in fields if name not in named)
        and (all(holds(record, name) for name in fields if name in named)
             or _named_as(record, fields, shapes))
        and all(_says_something(record.get(name)) for name in written)
        and all(any(fact_in_text(fact, record.get(name)) for name in written)
                for fact in mentions)
        and (not topic or any(value_in_text(word, record.get(name))
                              for name in written for word in topic))
        and (not about or any(value_in_text(word, text)
                              for text in _texts(record) for word in about))
        for key, record in ((k, with_leaves(r) if leaves else r) for k, r in new.items())
        if key not in old
    )


def _says_something(value: Any) -> bool:
    """Whether a field holds text of its own: two words at least (no empty message)."""
    return isinstance(value, str) and len(value.split()) >= 2


def _field_equals(criterion: Criterion, start: States, end: States, answer: str) -> bool:
    _, after = _states(criterion, start, end)
    record = after.records(_name(criterion.params, "collection")).get(
        _name(criterion.params, "id"))
    fields = _fields(criterion.params)
    if record is not None and _by_path(fields):
        record = with_leaves(record)
    return record is not None and bool(fields) and all(
        json_equal(record.get(name), value) for name, value in fields.items()
    )


def _record_deleted(criterion: Criterion, start: States, end: States, answer: str) -> bool:
    before, after = _states(criterion, start, end)
    collection = _name(criterion.params, "collection")
    record_id = _name(criterion.params, "id")
    return record_id in before.records(collection) and record_id not in after.records(collection)


def _answer_contains(criterion: Criterion, start: States, end: States, answer: str) -> bool:
    competitors = criterion.params.get("competitors", [])
    if not isinstance(competitors, list):
        raise TypeError("competitors must be a list")
    return value_in_text(criterion.params["value"], answer) and not any(
        value_in_text(other, answer) for other in competitors)


def _ids(values: Any) -> set[str]:
    if not isinstance(values, list):
        raise TypeError("ids must be a list")
    return {str(value) for value in values}


def _no_collateral_change(criterion: Criterion, start: States, end: States, answer: str) -> bool:
    allowed = criterion.params["allowed"]
    if not isinstance(allowed, dict) or start.keys() != end.keys():
        return False
    if any(service not in start for service in allowed):
        return False
    for service in sorted(start):
        before, after = start[service], end[service]
        for collection, change in diff(before, after).items():
            rule = allowed.get(service, {}).get(collection)
            if not isinstance(rule, dict):
                return False
            limit = rule.get("created", 0)
            if isinstance(limit, bool) or not isinstance(limit, int):
                return False
            id_field = after.id_field(collection)
            updated = {str(entry["id"]) for entry in change["updated"]}
            deleted = {str(record.get(id_field)) for record in change["deleted"]}
            if (len(change["created"]) > limit
                    or not updated <= _ids(rule.get("updated", []))
                    or not deleted <= _ids(rule.get("deleted", []))):
                return False
    return True


def _record_untouched(criterion: Criterion, start: States, end: States, answer: str) -> bool:
    """No record created or changed in any service holds one of `values` (a near-miss's
    email or phone: the record a selection left alone was left alone)."""
    values = {str(v).lower() for v in criterion.params["values"]}
    if not values or start.keys() != end.keys():
        return False
    for service in sorted(start):
        for change in diff(start[service], end[service]).values():
            touched = [*change["created"], *(entry["after"] for entry in change["updated"])]
            if any(text.lower() in values for record in touched
                   for _, text in string_leaves(record)):
                return False
    return True


_CHECKS: dict[str, Callable[[Criterion, States, States, str], bool]] = {
    "record_created": _record_created,
    "field_equals": _field_equals,
    "record_deleted": _record_deleted,
    "answer_contains": _answer_contains,
    "no_collateral_change": _no_collateral_change,
    "record_untouched": _record_untouched,
}


def evaluate_criterion(criterion: Criterion, start: States, end: States, answer: str) -> bool:
    """Whether a run (start and end states per service, final answer) meets one criterion.

    Never raises: an unknown kind, a missing service or malformed params give False.
    """
    try:
        return bool(_CHECKS[criterion.kind](criterion, start, end, answer))
    except Exception:  # noqa: BLE001 - a malformed criterion fails, it never breaks scoring
        return False


def evaluate_rubric(rubric: list[Criterion], start: States, end: States, answer: str) -> list[bool]:
    """The pass vector of a run: one bool per criterion, in the rubric's order."""
    return [evaluate_criterion(criterion, start, end, answer) for criterion in rubric]
