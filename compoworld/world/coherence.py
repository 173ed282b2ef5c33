"""A drawn record that agrees with itself: its times, its flags and its status.

Fields are drawn one by one; these rules, worked out once per object schema, then make
the record one story:

- a meeting's or booking's end is 30 minutes to 2 hours after its start (`span_end`), and
  one with an end has a start (`span_start`);
- an all-day event (`all_day`, `isAllDay`) runs midnight to midnight, no clock times, and
  only a day-long one is all-day: no "Weekly budget review" from midnight (`all_day_rule`);
- a lifecycle stamp (`closed_at`, `canceledAt`, `resolved_on`, `deletedTime`) goes with the
  status it names (`closed`, `cancelled`), and that status with its stamp: a stamp beside
  another status is left out (or, where the schema requires it, the status follows the
  stamp), and a record in that status gets the stamp of its last update (`status_rule`).

- ordered pairs come in order (`range_pairs`: `start_date <= end_date`, `created_at <=
  updated_at`, `created <= deletedTime`); the object sampler swaps them when drawn the
  other way round;
- one moment said twice, in UTC and in local time (`StartDate` and `StartDateUTC`,
  `StartTimeLocal` and `StartTimeUTC`), is the same moment (`zone_twin_rule`);
- a happening's `duration` is the time from its start to its end, in the unit its name
  says (`duration_rule`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from compoworld.graph.semtypes import split_words

Rule = Callable[[dict[str, Any], dict[str, Any] | None], None]

# --- spans ------------------------------------------------------------------------------

_SPAN_MINUTES = (30, 45, 60, 60, 90, 120)


def _parse(text: Any) -> datetime | None:
    if not isinstance(text, str) or len(text) < 10:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z")
                                      else text)
    except ValueError:
        return None


def _write(moment: datetime, like: str) -> str:
    """`moment` written as `like` is (a `Z` suffix, an offset, or none; a date alone)."""
    if "T" not in like and " " not in like:
        return moment.date().isoformat()
    text = moment.isoformat()
    if like.endswith("Z") and text.endswith("+00:00"):
        text = text.removesuffix("+00:00") + "Z"
    return text


def span_end(start: Any, end: Any) -> Any:
    """An end 30 minutes to 2 hours after `start`, in `end`'s format; `end` as it was when
    either is no ISO time."""
    begin = _parse(start)
    if begin is None or _parse(end) is None:
        return end
    return _write(begin + timedelta(minutes=_span(start)), end)


def span_start(end: Any) -> Any:
    """A start 30 minutes to 2 hours before `end`, no earlier than 08:00, in its format
    (None when `end` is no ISO time): a meeting with an end has a start."""
    finish = _parse(end)
    if finish is None:
        return None
    begin = finish - timedelta(minutes=_span(end))
    if begin.hour < 8 or begin.date() < finish.date():
        begin = finish.replace(hour=8, minute=0, second=0, microsecond=0)
    return _write(begin, end)


def _span(text: str) -> int:
    # the length from the time itself: a draw of `rng` would shift every later value
    return _SPAN_MINUTES[zlib.crc32(text.encode()) % len(_SPAN_MINUTES)]


# --- ordered pairs ---------------------------------------------------------------------

# Word pairs of ordered fields: `start_date` <= `end_date`, `created_at` <= `updated_at`,
# `created_at` <= `canceled_at`.
_RANGES = (("start", "end"), ("from", "to"), ("begin", "end"), ("created", "updated"),
           ("created", "modified"), ("registered", "updated"), ("registered", "modified"),
           ("invoice", "pay"),  # (an invoice is paid after it is issued, never before)
           ("since", "until"), ("min", "max"), ("earliest", "latest"),
           ("check_in", "check_out"), ("departure", "arrival"), ("opened", "closed"),
           ("starts", "ends"), ("after", "before"), ("issued", "due"), ("valid_from", "valid_to"),
           # a ticket's SLA deadline falls after it was opened (review: an SLA months early)
           ("created", "sla"), ("created", "due"),
           # an invoice is made, then issued; a task is started before it is due (an
           # Avaza bill due months before it was issued, a task started after its due day)
           ("created", "issued"), ("start", "due"),
           # work starts before it is done, or called off, and before the day it aims at
           # (a Linear release "startedAt" 2025-04-05, "completedAt" 2024-11-21)
           *((begun, word) for begun in ("started", "start")
             for word in ("completed", "finished", "ended", "canceled", "cancelled")),
           ("start", "target"),
           # a record closes, is cancelled or deleted after it was made
           *(("created", word) for word in ("closed", "resolved", "cancelled", "canceled",
                                            "completed", "finished", "archived", "deleted",
                                            "voided", "refunded", "rejected", "declined")))
_ORDERED_TYPES = frozenset({"date", "datetime", "time", "integer", "number", "money"})
_LOOSE_KEYS = frozenset({"description", "title", "example", "examples", "x-example"})


def range_pairs(props: dict[str, Any], types: dict[str, str]) -> list[tuple[str, str]]:
    """(early, late) field pairs of one object that must come in order, such as
    (`start_date`, `end_date`) or (`created_at`, `updated_at`): same type, same shape."""
    by_words = {tuple(split_words(key)): key for key in props}
    # times also pair across their suffixes: `created` with `deletedTime`
    stems = {_stem(words): key for words, key in by_words.items()
             if types.get(key) in ("date", "datetime")}
    pairs = []
    for words, key in by_words.items():
        if types.get(key) not in _ORDERED_TYPES:
            continue
        for early, late in _RANGES:
            first, then = tuple(early.split("_")), tuple(late.split("_"))
            for index in range(len(words)):
                if words[index:index + len(first)] != first:
                    continue
                other = (*words[:index], *then, *words[index + len(first):])
                match = by_words.get(other) or (stems.get(_stem(other)) if types[key] in (
                    "date", "datetime") else None)
                if match and match != key and types.get(match) == types[key] and _shape(
                        props[key]) == _shape(props[match]):
                    pairs.append((key, match))
    return list(dict.fromkeys(pairs))


_TIME_SUFFIXES = frozenset({"at", "on", "time", "date", "datetime", "timestamp", "utc"})
_TIME_PREFIXES = frozenset({"date", "time", "datetime", "timestamp"})


def _stem(words: tuple[str, ...]) -> tuple[str, ...]:
    """A time field's words without its suffixes (`deleted_time` -> `deleted`), or its
    prefix (Avaza's `DateIssued` -> `issued`, beside its `DueDate`)."""
    while len(words) > 1 and words[-1] in _TIME_SUFFIXES:
        words = words[:-1]
    while len(words) > 1 and words[0] in _TIME_PREFIXES:
        words = words[1:]
    return words


def _shape(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    return {k: v for k, v in schema.items() if k not in _LOOSE_KEYS}


# --- all-day events ---------------------------------------------------------------------

_START_WORDS = frozenset("start starts begin begins from".split())
# Titles of happenings that take the whole day.
_DAY_LONG = re.compile(r"offsite|off-site|holiday|conference|training day|vacation|leave|"
                       r"retreat|trade show|fair|festival|day off|away day|trip", re.I)
_END_WORDS = frozenset("end ends until to finish".split())


def all_day_rule(props: dict[str, Any], types: dict[str, str]) -> Rule | None:
    """An all-day event's start is its day's midnight and its end the next midnight; when
    the caller gave clock times, the event is not all-day."""
    flag = next((key for key, sub in props.items() if isinstance(sub, dict)
                 and sub.get("type") == "boolean" and {"all", "day"} <= set(split_words(key))),
                None)
    times = [key for key, kind in types.items() if kind == "datetime"]
    start = next((k for k in times if set(split_words(k)) & _START_WORDS), None)
    end = next((k for k in times if set(split_words(k)) & _END_WORDS), None)
    if flag is None or start is None and end is None:
        return None

    titles = [key for key in props if split_words(key)[-1:] in (["title"], ["subject"],
                                                                 ["name"], ["summary"])]

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        if out.get(flag) is not True:
            return
        title = next((out[k] for k in titles if isinstance(out.get(k), str)), None)
        if title is not None and not _DAY_LONG.search(title) and not (
                overrides and flag in overrides):
            out[flag] = False  # a meeting keeps its clock times
            return
        given = overrides.keys() & {start, end} if overrides else set()
        if given:
            if not (overrides and flag in overrides):
                out[flag] = False  # the caller's clock times: a timed event
            return
        begin, finish = _parse(out.get(start)), _parse(out.get(end))
        if begin is None and finish is not None:  # only its end: that day's midnight
            out[end] = _write(finish.replace(hour=0, minute=0, second=0, microsecond=0),
                              out[end])
        if begin is None:
            return
        midnight = begin.replace(hour=0, minute=0, second=0, microsecond=0)
        out[start] = _write(midnight, out[start])
        if finish is not None:
            out[end] = _write(midnight + timedelta(days=1), out[end])

    return rule


# --- lifecycle stamps and status --------------------------------------------------------

# A stamp's word -> the statuses a record with that stamp is in.
_STAMP_STATUS = {
    "closed": "closed resolved done completed complete archived",
    "resolved": "resolved closed done completed",
    "cancelled": "cancelled canceled",
    "completed": "completed complete done finished closed succeeded fulfilled delivered",
    "finished": "finished completed complete done closed succeeded",
    "archived": "archived",
    "deleted": "deleted removed archived",
    "voided": "void voided",
    "refunded": "refunded",
    "rejected": "rejected declined",
    "declined": "declined rejected",
}
_STAMP_WORDS = {word: frozenset(statuses.split()) for word, statuses in _STAMP_STATUS.items()}
_STAMP_WORDS["canceled"] = _STAMP_WORDS["cancelled"]
_TIME_TYPES = frozenset({"datetime", "date"})
_LATEST = ("updated", "modified", "changed")


def _status_key(props: dict[str, Any], types: dict[str, str]) -> str | None:
    for key in props:
        words = split_words(key)
        if words[-1:] in (["status"], ["state"]) and len(words) <= 2 and types.get(key) in (
                "string", "title", "status"):
            return key
    return None


def _norm(value: Any) -> str:
    return str(value).lower().replace("-", "_").replace(" ", "_")


def status_rule(props: dict[str, Any], types: dict[str, str],
                required: set[str]) -> Rule | None:
    """A lifecycle stamp only beside the status it names, and that status with its stamp;
    a flag that names it (`isDeleted`, `deletedStatus`, `archived`) says the same."""
    status = _status_key(props, types)
    stamps: dict[str, tuple[str, frozenset[str]]] = {}
    for key, kind in types.items():
        if kind in _TIME_TYPES:
            word = next((w for w in split_words(key) if w in _STAMP_WORDS), None)
            if word is not None:
                stamps[key] = (word, _STAMP_WORDS[word])
    flags = {key: word for key, sub in props.items() if isinstance(sub, dict)
             and sub.get("type") == "boolean"
             for word in split_words(key) if word in _STAMP_WORDS}
    if (status is None and not flags) or not stamps:
        return None
    schema = props.get(status) if status is not None else None
    enum = schema.get("enum") if isinstance(schema, dict) else None
    allowed = {_norm(v): v for v in enum if isinstance(v, str)} if isinstance(enum, list) \
        else None
    latest = [key for key, kind in types.items() if kind in _TIME_TYPES and key not in stamps
              and set(split_words(key)) & set(_LATEST)]

    def agrees(out: dict[str, Any], word: str, statuses: frozenset[str]) -> bool | None:
        """Whether the record is in the stamp's state: its status says, else its flag."""
        now = out.get(status) if status is not None else None
        if isinstance(now, str):
            return _norm(now) in statuses
        said = [out[key] for key, flag_word in flags.items() if flag_word == word
                and isinstance(out.get(key), bool)]
        return said[0] if said else None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        fixed = overrides.keys() if overrides else set()
        for key, (word, statuses) in stamps.items():
            if key not in out or out[key] is None or agrees(out, word, statuses) is not False:
                continue
            if key not in required and key not in fixed:
                del out[key]  # `closedAt` on an open ticket: it has not closed
                continue
            if status is None or status in fixed or not isinstance(out.get(status), str):
                continue
            match = next((allowed[s] for s in statuses if s in allowed), None) \
                if allowed is not None else sorted(statuses)[0]
            if match is not None:
                out[status] = match  # a required stamp: the status it names
        for key, (word, statuses) in stamps.items():  # a closed ticket has its closing time
            if key not in out and key not in fixed and agrees(out, word, statuses):
                source = next((k for k in latest if types[k] == types[key]
                               and isinstance(out.get(k), str)), None)
                if source is not None:
                    out[key] = out[source]

    return rule


def final_rule(types: dict[str, str]) -> Rule | None:
    """A record changes no more once it is closed, and closing it was a change: its last
    update (`updatedAt`) is its closing stamp (`closedAt`, `resolved_at`, `cancelledAt`);
    reviewers read both `updatedAt` after `closedAt` and `closedAt` after `updatedAt`."""
    stamps = [key for key, kind in types.items() if kind in _TIME_TYPES
              and set(split_words(key)) & {"closed", "resolved", "cancelled", "canceled",
                                           "completed", "voided"}]
    latest = [key for key, kind in types.items() if kind in _TIME_TYPES
              and key not in stamps and set(split_words(key)) & set(_LATEST)]
    if not stamps or not latest:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        for stamp in stamps:
            end = out.get(stamp)
            for key in latest:
                value = out.get(key)
                if (isinstance(end, str) and isinstance(value, str) and value != end
                        and len(value) == len(end) and not (overrides and key in overrides)):
                    out[key] = end

    return rule


# --- a record's own timeline -----------------------------------------------------------

_CREATED = frozenset("created creation create".split())
# A record's stamps after its making: its last change, visit or activity, its closing, its
# issue, sending or approval (`lastModifiedOn`, `lastVisitDate`, `status_changed_at`,
# `resolved_at`, Avaza's `DateVerified` of a bill made a year later).
_AFTER = frozenset("updated update modified modify changed change edited last closed "
                   "resolved issued sent approved verified submitted".split())


def timeline_rule(types: dict[str, str], now: datetime) -> Rule | None:
    """A record is made before anything else happens to it, and nothing has happened
    after `now`: created <= updated, modified, last-* and closed <= now, whatever the
    fields' names and formats (OnSched's `createdOn` after its `lastVisitDate`, a
    `createDate` day after the `lastModifiedOn` instant, Square's `updated_at` later today).
    A stamp out of line is moved between the making and now, by its own text's hash."""
    # (a plain string named as a stamp counts too when it holds a time: Ecwid's `updated`)
    times = [key for key, kind in types.items() if kind in _TIME_TYPES or kind == "string"
             and set(split_words(key)) & (_CREATED | _AFTER) - {"last"}]
    made = [key for key in times if set(split_words(key)) & _CREATED
            and "last" not in split_words(key)]
    after = [key for key in times if key not in made and set(split_words(key)) & _AFTER]
    if not made and not after:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        fixed = overrides.keys() if overrides else set()
        for key in (*made, *after):  # nothing has happened after now
            moment = moment_of(out.get(key))
            if moment is not None and moment > now and key not in fixed:
                out[key] = _put(_between(now - timedelta(days=30), now, out[key]), out[key])
        begun = [m for key in made if (m := moment_of(out.get(key))) is not None]
        if not begun:
            return
        start = max(begun)
        for key in after:
            moment = moment_of(out.get(key))
            if moment is None or key in fixed or _day_only(out[key]) and (
                    moment.date() >= start.date()) or moment >= start:
                continue
            out[key] = _put(_between(start, max(start, now), out[key]), out[key])

    return rule


def until_rule(types: dict[str, str]) -> Rule | None:
    """What holds until a moment (`valid_until`, `expires_at`) holds past everything that
    happened to its record: a Telnyx text was `"sent_at": "2025-03-03..."` and
    `"valid_until": "2024-05-06..."`. Run after `timeline_rule`, which may move a `sent_at`
    past its making; a stamp out of line is moved to up to 60 days after the latest, by its
    own text's hash."""
    ends = [key for key, kind in types.items() if kind in _TIME_TYPES
            and (set(words := split_words(key)) & _EXPIRES
                 or ["valid", "until"] in (words[:2], words[-2:]))]
    others = [key for key, kind in types.items() if kind in _TIME_TYPES and key not in ends
              and set(split_words(key)) & (_CREATED | _AFTER | _SENT)]
    if not ends or not others:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        seen = [m for key in others if (m := moment_of(out.get(key))) is not None]
        if not seen:
            return
        latest = max(seen)
        for key in ends:
            moment = moment_of(out.get(key))
            if moment is None or moment >= latest or (overrides and key in overrides):
                continue
            out[key] = _put(_between(latest, latest + timedelta(days=60), out[key]), out[key])

    return rule


_EXPIRES = frozenset("expires expiry expiration".split())
_SENT = frozenset("sent delivered".split())


def moment_of(text: Any) -> datetime | None:
    """An ISO time or day as an instant (a day at its midnight, no zone as UTC)."""
    found = _parse(text)
    if found is not None and found.tzinfo is None:
        found = found.replace(tzinfo=UTC)
    return found


def _put(moment: datetime, like: str) -> str:
    """`moment` written as `like` is, with no zone where it has none."""
    found = _parse(like)
    return _write(moment.replace(tzinfo=None) if found is not None and found.tzinfo is None
                  else moment, like)


def _day_only(text: str) -> bool:
    return "T" not in text and " " not in text


def _between(start: datetime, end: datetime, text: str) -> datetime:
    """A moment from `start` to `end`, to the minute, by `text`'s hash (no draw of the
    record's generator, which would shift every later value)."""
    minutes = max(0, int((end - start).total_seconds() // 60))
    return (start + timedelta(minutes=zlib.crc32(text.encode()) % (minutes + 1))).replace(
        second=0, microsecond=0)


# --- one moment said in two zones --------------------------------------------------------

_ZONES = frozenset({"utc", "gmt", "local", "z"})


def zone_twin_rule(types: dict[str, str]) -> Rule | None:
    """A time said in UTC and again in local time (Avaza's `StartDate` and `StartDateUTC`,
    `StartTimeLocal` and `StartTimeUTC`) is one moment: the world knows no zone of the
    account's, so both read the same (a project phase that started in June and, in UTC,
    in February was two stories). The one without a zone's name, or the local one, says
    it; overridden fields are kept."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for key, kind in types.items():
        words = tuple(split_words(key))
        if kind in ("date", "datetime") and words:
            groups.setdefault(tuple(w for w in words if w not in _ZONES), []).append(key)
    twins = [sorted(keys, key=lambda k: (bool(set(split_words(k)) & (_ZONES - {"local"})),
                                         k)) for keys in groups.values() if len(keys) > 1
             and any(set(split_words(k)) & _ZONES for k in keys)]
    if not twins:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        fixed = overrides.keys() if overrides else set()
        for keys in twins:
            said = next((key for key in keys if key in fixed and key in out), None) \
                or next((key for key in keys if key in out), None)
            if said is None:
                continue
            for key in keys:
                if key != said and key in out and key not in fixed \
                        and types[key] == types[said]:
                    out[key] = out[said]

    return rule


# --- a happening's day ------------------------------------------------------------------

_DAY_WORDS = frozenset({"date", "day"})
# (a start of `_START_WORDS` but "from", which is a range's, no meeting's)
_HAPPENING_STARTS = _START_WORDS - {"from"}


def _times(types: dict[str, str], words: frozenset[str]) -> list[str]:
    """The keys of datetimes saying one of `words`, in no named zone (`startTime`, not
    `StartDateUTC`)."""
    return [key for key, kind in types.items() if kind == "datetime"
            and set(split_words(key)) & words and not set(split_words(key)) & _ZONES]


def _first(out: dict[str, Any], keys: list[str]) -> datetime | None:
    """The moment the first of `keys` a record holds as text says (None where it says
    none)."""
    return next((moment_of(out[key]) for key in keys if isinstance(out.get(key), str)), None)


def event_day_rule(types: dict[str, str]) -> Rule | None:
    """A meeting's own `date` (or `day`, `meeting_date`) is the day it starts: Zoom's
    meetings had a `date` of February 17 beside a `startTime` of February 13, and a
    request asked for "its date". The start says it; overridden fields are kept."""
    days = [key for key, kind in types.items() if kind in ("date", "datetime")
            and (words := split_words(key)) and words[-1] in _DAY_WORDS
            and not set(words) & (_HAPPENING_STARTS | _END_WORDS | _CREATED | _AFTER)
            and len(words) <= 2]
    starts = _times(types, _HAPPENING_STARTS)
    if not days or not starts:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        fixed = overrides.keys() if overrides else set()
        moment = _first(out, starts)
        if moment is None:
            return
        for key in days:
            value = out.get(key)
            if isinstance(value, str) and key not in fixed and moment_of(value) is not None:
                out[key] = _put(moment, value)  # (a day alone, as a day)

    return rule


# --- a happening's length ---------------------------------------------------------------

# seconds in the unit a duration's name says (minutes where it says none)
_UNITS = {"seconds": 1, "second": 1, "secs": 1, "sec": 1, "ms": 0.001, "millis": 0.001,
          "milliseconds": 0.001, "minutes": 60, "minute": 60, "mins": 60, "min": 60,
          "hours": 3600, "hour": 3600, "hrs": 3600}


def duration_rule(types: dict[str, str]) -> Rule | None:
    """A meeting's `duration` (`durationMinutes`, `duration_seconds`) is the time from its
    start to its end: a GoToMeeting meeting of 09:15 to 10:45 said `"duration": 1`, and a
    reviewer could not tell which to believe. In the unit the name says, minutes where it
    says none; overridden fields are kept, and a duration with no end beside it is the
    record's own."""
    lengths = [key for key, kind in types.items() if kind in ("integer", "number")
               and "duration" in split_words(key)]
    starts, ends = _times(types, _HAPPENING_STARTS), _times(types, _END_WORDS)
    if not lengths or not starts or not ends:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        fixed = overrides.keys() if overrides else set()
        start, end = _first(out, starts), _first(out, ends)
        if start is None or end is None or end < start:
            return
        seconds = (end - start).total_seconds()
        for key in lengths:
            if key in out and key not in fixed:
                unit = next((_UNITS[w] for w in split_words(key) if w in _UNITS), 60)
                value = seconds / unit
                out[key] = int(round(value)) if types[key] == "integer" else round(value, 2)

    return rule


def initials_rule(types: dict[str, str]) -> Rule | None:
    """A person's `initials` are their name's first letters: Apacta's user Yusuf Martin held
    `"initials": "Des"` (and others "Int", "Q3", "Sup"), filler a reviewer read as made up.
    From the record's full name, else its first and last names; overridden fields kept."""
    marks = [key for key, kind in types.items() if kind == "string"
             and split_words(key)[-1:] == ["initials"]]
    full = [key for key, kind in types.items() if kind == "person_name"]
    parts = [next((key for key, kind in types.items() if kind == wanted), None)
             for wanted in ("first_name", "last_name")]
    if not marks or not (full or all(parts)):
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        name = next((out[key] for key in full if isinstance(out.get(key), str)), None)
        if name is None and all(isinstance(out.get(key), str) for key in parts):
            name = f"{out[parts[0]]} {out[parts[1]]}"
        if not name:
            return
        letters = "".join(word[0].upper() for word in name.split() if word[:1].isalpha())
        for key in marks:
            if key in out and not (overrides and key in overrides) and letters:
                out[key] = letters

    return rule
