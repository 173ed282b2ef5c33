"""Numbers of one record that must agree: parts within their total, a date and its Unix
time one moment.

Fields are drawn one by one, so reviewers read a SalesLoft person with `emails_bounced: 97`
of `emails_sent: 26`, and an Ecwid order created on `createDate` 2024-03-16 but at
`createTimestamp` 1730622913 (2024-11-03). These rules, worked out once per object
schema, fix a drawn record in place without drawing from its generator (so no later value
of the world shifts), and leave alone any field the caller gave.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from compoworld.graph.semtypes import split_words

Rule = Callable[[dict[str, Any], dict[str, Any] | None], None]

# A count that others are part of (`emails_sent`, `total_messages`), and words of its parts.
_TOTAL_WORDS = frozenset({"sent", "total", "recipients"})
_PART_WORDS = frozenset("bounced viewed clicked replied opened read failed unsubscribed "
                        "delivered spam complaints answered responded".split())
_TIME_SUFFIXES = frozenset({"date", "timestamp", "time", "at", "on", "epoch"})


def _prefix(words: list[str]) -> tuple[str, ...] | None:
    """The words before a total's total word (`emails_sent` -> `emails`), or None."""
    for index, word in enumerate(words):
        if word in _TOTAL_WORDS:
            return tuple(words[:index])
    return None


def part_pairs(props: dict[str, Any], types: dict[str, str]) -> list[tuple[str, str]]:
    """(part, total) integer fields of one object: `emails_bounced` within `emails_sent`."""
    counts = {key: split_words(key) for key, sub in props.items()
              if isinstance(sub, dict) and sub.get("type") == "integer"
              and types.get(key) in ("integer", "number")}
    pairs = []
    for total, words in counts.items():
        prefix = _prefix(words)
        if prefix is None:
            continue
        for part, other in counts.items():
            if part != total and tuple(other[:len(prefix)]) == prefix and set(
                    other[len(prefix):]) & _PART_WORDS and _prefix(other) is None:
                pairs.append((part, total))
    return pairs


def subcount_rule(props: dict[str, Any], types: dict[str, str]) -> Rule | None:
    """A rule that brings each part count within its total (`emails_bounced <=
    emails_sent`), keeping the part's draw where it already fits."""
    pairs = part_pairs(props, types)
    if not pairs:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        for part, total in pairs:
            value, whole = out.get(part), out.get(total)
            if not (isinstance(value, int) and isinstance(whole, int)) or value <= whole:
                continue
            if overrides and part in overrides:
                continue
            out[part] = value % (max(whole, 0) + 1)

    return rule


# Verb forms a time field's name takes either way (`created` / `createTimestamp`).
_VERB = {"created": "create", "updated": "update", "modified": "modify", "deleted": "delete",
         "changed": "change", "posted": "post", "paid": "pay"}


def _stem(key: str) -> tuple[str, ...]:
    return tuple(_VERB.get(w, w) for w in split_words(key) if w not in _TIME_SUFFIXES)


def twin_rule(props: dict[str, Any], types: dict[str, str]) -> Rule | None:
    """A rule that makes a Unix time (`createTimestamp`) say the same day as its date
    twin (`createDate`), keeping its own time of day."""
    dates = {_stem(key): key for key, kind in types.items()
             if kind in ("date", "datetime", "string")}
    twins = [(dates[_stem(key)], key) for key, sub in props.items()
             if isinstance(sub, dict) and sub.get("type") in ("integer", "number")
             and split_words(key)[-1:] in (["timestamp"], ["epoch"])
             and _stem(key) and _stem(key) in dates]
    if not twins:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        for date_key, epoch_key in twins:
            text, epoch = out.get(date_key), out.get(epoch_key)
            if not isinstance(text, str) or not isinstance(epoch, int) or (
                    overrides and epoch_key in overrides):
                continue
            try:
                moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
            except ValueError:
                continue
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            if "T" not in text and " " not in text:  # a date alone: the epoch's time of day
                moment = moment.replace(hour=0, minute=0, second=0)
                out[epoch_key] = int(moment.timestamp()) + epoch % 86400
            else:
                out[epoch_key] = int(moment.timestamp())

    return rule
