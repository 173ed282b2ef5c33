"""Select or rank, then for each: a workflow asked for the records a rule chooses.

A person rarely asks for one reminder. They ask "remind every customer whose invoice is
overdue", and expect the others left alone. A selection is such a rule over the records of
a workflow's first read: the records whose field holds one value (a plan, a country, a
status), two to `MOST` of them, beside at least one record that does not meet it (a
near-miss, checked unchanged by the rubric's guard). A rank is the other way of choosing:
the `k` records with the highest or lowest value of a measure ("the two customers with the
highest balance", "the oldest ticket"), the walk's own record among them, with no tie
where the rank cuts. The walk makes the workflow's later steps once for each
(`walk.repeat_steps`).

Which rules make sense is the workflow's own, and its definition says them
(`Operator("select", field=..., rule=...)`, `Operator("rank", field=..., order=...)`;
the common ones are in compose/steps.py): a loyalty reward goes to the customers who spent
the most, a security reminder to one team, a follow-up to the orders that are delayed.
The engine selects by nothing a definition does not name: a thank-you for the meetings
with the "lowest sale price" is no request, and neither is a reminder to the users whose
"notification type" is basic.

Either holds over the whole collection: the first read must list every record of it (no
page left unread, no filter the request would have to say), or "every overdue customer"
would leave some out.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from compoworld.compose.records import AnswerItem, GoldCall, Selector
from compoworld.compose.values import value_at
from compoworld.graph.semtypes import pluralize, split_words

# records a selection may hold: each one repeats the workflow's steps (a job's "for each"
# runs over two to six records; with four at most, a rank took its two first)
MOST = 6
# fields that never hold a rule, whatever a definition allows (a person's name, an id, an
# address, free text)
_NOT_RULES = frozenset({"id", "name", "email", "phone", "url", "uri", "code", "key", "token",
                        "number", "address", "description", "note", "notes", "comment",
                        "notification", "notifications", "setting", "settings", "template",
                        # ... nor a default, which is a setting (Stripe's `default_source`
                        # is a card, no lead source: "every customer whose default source
                        # is trade_show" read as made up)
                        "default", "defaults"})
_SNAKE = re.compile(r"[a-z]+(?:_[a-z]+)+")  # an app's enum value: "trade_show"
_PLAIN = re.compile(r"[A-Za-z][A-Za-z _-]{1,23}")  # "overdue", "Gold", "in progress", "DE"
# ... and fields that measure nothing records are ranked by (an id, a postcode)
_NOT_MEASURES = frozenset({"id", "phone", "zip", "postal", "latitude", "longitude", "lat",
                           "lng", "version", "port", "year", "code", "number", "tax", "net",
                           "sub", "discount", "shipping", "fee", "fees", "vat"})
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# fields no set-up world changes: "Nairobi" on a record with a French postcode and phone
_PLACES = frozenset({"city", "country", "region", "state", "province", "zip", "postal"})
# ... nor whom a person works for, which their email's domain says too; and a company's
# name is a rule where a person's never is ("every contact who works at Juniper Labs")
_EMPLOYERS = frozenset({"company", "organization", "organisation", "employer"})
# a measure of when a record was made: its rank says "newest" and "longest-standing"
_AGE = frozenset({"created", "creation", "signup", "joined", "registered", "registration"})
# ... and of a time: "earliest", "latest" (a day, or a number of seconds since 1970)
_TIMES = _AGE | frozenset({"date", "time", "at", "due", "start", "deadline", "expires",
                           "expiry", "updated", "modified", "end"})
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
# a record's labels: a list of short words its team files it under (a customer tagged
# "vip", an issue labelled "urgent"); a rule of a workflow that names the labels it means
_LABELS = frozenset({"tag", "tags", "label", "labels"})


@dataclass(frozen=True, slots=True)
class Selection:
    """The records of the first read that meet the rule `field` is `value`, or that rank
    first by `field` (`order` "top" or "bottom"): `heads`, the walk's own first, and the
    rest (`others`: the near-misses)."""

    field: str
    value: str
    heads: tuple[str, ...]
    others: tuple[str, ...]
    order: str = ""  # "top" (highest, latest) or "bottom" for a rank; "" for a rule
    dated: bool = False  # a rank by a time (the latest, the earliest)
    # of the records chosen, those the workflow's copy found in its app already: left
    # alone, as the request asks ("add only the ones that are missing"), never added twice
    present: tuple[str, ...] = ()
    # what the chosen records are besides, where a record that meets the rule is not (a
    # guard's `holds`, said of one: "that is still open"); alone, with no `field`, it is
    # the rule ("every ticket in Gitea that is still open")
    also: str = ""

    # the records acted on are reported in the answer, by this field ("name"): `reported`
    report: str = ""

    @property
    def said(self) -> str:
        """The rule's value as a person says it: `trade show` of an app's `trade_show` (a
        request quoting `lead source is "trade_show"` read as a machine's)."""
        return self.value.replace("_", " ") if _SNAKE.fullmatch(self.value) else self.value

    @property
    def operators(self) -> list[str]:
        """The reasoning it asks for: `select` or `rank`, `for_each` of several, and
        `ensure` where some were there already."""
        return ["rank" if self.order else "select"] + (
            ["for_each"] if len(self.heads) + len(self.present) > 1 else []) + (
            ["ensure"] if self.present else []) + (["aggregate"] if self.report else [])

    def target(self, noun: str, app: str, words: str) -> str:
        """`every customer in Billbee whose plan is "Gold"`, `the two invoices in Xero with
        the earliest due date`, `the three newest leads in HubSpot`: the records, as a
        request names them (`words`: the field as a person says it)."""
        count = len(self.heads) + len(self.present)
        if self.also:  # (no "every upcoming meeting that has taken place")
            noun = re.sub(r"^(upcoming|past|active|open|current|recent) ", "", noun)
        if not self.order:
            if not self.field:
                return f"every {noun} in {app} {self.also}"
            if set(split_words(self.field)) & _LABELS:  # (not "whose tags is "vip"")
                said = "labelled" if {"label", "labels"} & set(split_words(self.field)) \
                    else "tagged"
                return f'every {noun} in {app} {said} "{self.said}"' + (
                    f" {self.also}" if self.also else "")
            if set(split_words(self.field)) & _EMPLOYERS:  # (not "whose company name is")
                return f"every {noun} in {app} who works at {self.value}" + (
                    f" and {self.also}" if self.also else "")
            return f'every {noun} in {app} whose {words} is "{self.said}"' + (
                f" and {self.also}" if self.also else "")
        also = f" {_plural(self.also) if count > 1 else self.also}" if self.also else ""
        if set(split_words(self.field)) & _AGE:
            # (not "oldest": "the two oldest contacts" read as their age, beside a
            # birthday in 1940)
            age = "newest" if self.order == "top" else "longest-standing"
            return f"the {age} {noun} in {app}{also}" if count == 1 else \
                f"the {NUMBERS[count]} {age} {pluralize(noun)} in {app}{also}"
        what = noun if count == 1 else f"{NUMBERS[count]} {pluralize(noun)}"
        if self.order == "bottom" and "ahead" in self.also.split() \
                and "start" in split_words(self.field):
            return f"the next {what} in {app}"  # (not "... still ahead with the earliest start")
        most = ("latest" if self.order == "top" else "earliest") if self.dated \
            else ("highest" if self.order == "top" else "lowest")
        return f"the {what} in {app}{also} with the {most} {words}"


def _plural(clause: str) -> str:
    """`that is still open` said of several: `that are still open`."""
    return re.sub(r"\b(is|has)\b", lambda m: {"is": "are", "has": "have"}[m.group(1)],
                  clause, count=1)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a workflow's records may be chosen by (its `select` and `rank`
    operators): a field saying one of `fields`, holding one of `values` (any, when
    empty); and ranks, each by a field saying one of its words, in its order ("top",
    "bottom")."""

    fields: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()
    ranks: tuple[tuple[frozenset[str], str], ...] = ()
    held: bool = False  # every record its guards let it act on (`steps.EVERY_VALID`)
    tags: frozenset[str] = frozenset()  # labels it may choose by (`steps.tagged`)

    @property
    def chooses(self) -> bool:
        """Whether any rule, rank or label may choose the workflow's records."""
        return bool(self.fields or self.ranks or self.held or self.tags)


def workflow_rules(operators: tuple[Any, ...]) -> Rules:
    """The `Rules` of a workflow's `select` and `rank` operators (a `select` by labels,
    `steps.tagged`, names the labels it means, each a rule of its own)."""
    chosen = [o for o in operators if o.kind == "select" and o.field]
    labels = [o for o in chosen if set(o.field.lower().split()) & _LABELS]
    chosen = [o for o in chosen if o not in labels]
    return Rules(frozenset(w for o in chosen for w in o.field.lower().split()),
                 frozenset(w for o in chosen for w in o.rule.lower().split()),
                 tuple((frozenset(o.field.lower().split()), o.order)
                       for o in operators if o.kind == "rank"),
                 any(o.kind == "select" and not o.field for o in operators),
                 frozenset(w for o in labels for w in o.rule.lower().split()))


def selections(call: GoldCall, head: str, total: int, rules: Rules,
               probed: dict[str, str] | None = None) -> list[Selection]:
    """Every rule of `rules` that selects item `head` of `call`'s list (`data[2]`) with
    one to `MOST - 1` others and leaves one at least alone, and every rank of theirs that
    takes it (fields sorted); none when the list is not the whole collection (`total`
    records) or was read by a stated filter.

    `probed` says, per other item, whether the workflow's steps may be made for it: ""
    where they may, a guard's `holds` where the guard flags it ("that is still open": a
    closed ticket), `UNABLE` where no step can be made for it or a guard that says nothing
    flags it. A rule's records that a guard flags are left alone, and the rule says what
    the others are besides ("... and that is still open"); the guard's words are a rule
    of their own (where `rules.held`) where they leave two to `MOST` records and flag
    one at least. No rule takes a record its steps cannot be made for."""
    listed = whole_list(call, head, total)
    if listed is None:
        return []
    where, items, mine = listed
    probed = probed or {}
    found: list[Selection] = []
    for key, value in sorted(mine.items()):
        if is_rule(key, value, rules):
            found += _meeting(items, where, head, probed, key, value.strip(),
                              lambda item, key=key, value=value: _same(item.get(key), value))
        for tag in labels(key, value, rules):
            found += _meeting(items, where, head, probed, key, tag,
                              lambda item, key=key, tag=tag: _labelled(item.get(key), tag))
    found += _held(items, where, head, probed) if rules.held else []
    return found + ranks(items, where, head, rules, probed)


def _meeting(items: list[Any], where: str, head: str, probed: dict[str, str], key: str,
             value: str, meets: Any) -> list[Selection]:
    """The selection of the records of `items` that meet a rule (`meets(item)`: field
    `key` holds `value`), as `selections` takes it: two at least, one at least left
    alone, those a guard flags left alone too (with its words), none it cannot be done
    for; [] where that fails."""
    same = [f"{where}[{i}]" for i, item in enumerate(items)
            if isinstance(item, dict) and meets(item)]
    flagged = sorted({probed.get(i, "") for i in same} - {""})
    if UNABLE in flagged or len(flagged) > 1:
        return []  # (one it cannot be done for, or two guards' words)
    chosen = [i for i in same if not probed.get(i)]
    if len(same) < 2 or not 1 <= len(chosen) <= min(MOST, len(items) - 1):
        return []
    heads = [head] + [i for i in chosen if i != head]
    others = [f"{where}[{i}]" for i in range(len(items)) if f"{where}[{i}]" not in heads]
    return [Selection(key, value, tuple(heads), tuple(others), also="".join(flagged))]


def labels(key: str, value: Any, rules: Rules) -> list[str]:
    """The labels of a record's field `key` (a list of words, its `tags`) that the
    workflow may choose by (`rules.tags`), as the record spells them."""
    if not rules.tags or not set(split_words(key)) & _LABELS or not isinstance(value, list):
        return []
    return sorted({t.strip() for t in value if isinstance(t, str)
                   and t.strip().lower() in rules.tags})


def _labelled(value: Any, tag: str) -> bool:
    return isinstance(value, list) and any(_same(t, tag) for t in value)


def _held(items: list[Any], where: str, head: str, probed: dict[str, str]) -> list[Selection]:
    """The records a guard's words choose (`every ticket that is still open`): all the
    list's records but those it flags, two to `MOST` of them, one at least flagged and
    none its steps cannot be made for."""
    flagged = {probed.get(f"{where}[{i}]", "") for i in range(len(items))} - {""}
    if len(flagged) != 1 or UNABLE in flagged:
        return []
    heads = [head] + [f"{where}[{i}]" for i in range(len(items))
                      if not probed.get(f"{where}[{i}]") and f"{where}[{i}]" != head]
    if not 2 <= len(heads) <= MOST:
        return []
    others = tuple(f"{where}[{i}]" for i in range(len(items)) if f"{where}[{i}]" not in heads)
    return [Selection("", "", tuple(heads), others, also=flagged.pop())]


UNABLE = "!"  # a record the workflow's steps cannot be made for (`selections`' `probed`)


def whole_list(call: GoldCall, head: str, total: int
                ) -> tuple[str, list[Any], dict[str, Any]] | None:
    """Where item `head` of `call`'s result lies (`data`), its list and the item, where a
    rule may choose among them: a list of three records at least that is the whole
    collection (`total` records) and was read by no stated filter (a list read by a name
    or a search holds the matches, not the rest); None otherwise."""
    if any(b.kind == "visible" for b in call.bindings.values()):
        return None
    where, _, _ = head.rpartition("[")
    try:
        items = value_at(call.result, where)
        mine = value_at(call.result, head)
    except KeyError:
        return None
    if not isinstance(items, list) or len(items) != total or len(items) < 3 \
            or not isinstance(mine, dict):
        return None
    return where, items, mine


def ranks(items: list[Any], where: str, head: str, rules: Rules,
          probed: dict[str, str] | None = None) -> list[Selection]:
    """Every rank of `rules` over list `items` (at `where`) that takes item `head` among
    its first `k` (two to `MOST`, one record at least left out; and one alone, where it
    comes first), by a measure every item
    holds, with no tie where it cuts (fields sorted). The records a guard flags (`probed`,
    as `selections` reads it) are ranked with none: where one would have come first, the
    rank says what the others are besides ("the two oldest tickets that are still open");
    none takes a record its steps cannot be made for."""
    index = int(head.rpartition("[")[2].rstrip("]"))
    probed = probed or {}
    flags = [probed.get(f"{where}[{i}]", "") for i in range(len(items))]
    words_of = sorted(set(flags) - {"", UNABLE})
    if len(words_of) > 1:
        return []  # (two guards' words: no one rule says them)
    found: list[Selection] = []
    for words, order in rules.ranks:
        for key in sorted(items[index]):
            values = [item.get(key) if isinstance(item, dict) else None for item in items]
            if not set(split_words(key)) & words or not is_measure(key, values):
                continue
            ranked = sorted(range(len(items)), key=lambda i: values[i],
                            reverse=order == "top")
            open_ = [i for i in ranked if flags[i] in ("", UNABLE)]
            place = open_.index(index) + 1

            def _cuts(k: int, values: list[Any] = values, open_: list[int] = open_) -> bool:
                """No tie where the rank cuts, and none it takes it cannot be done for."""
                return values[open_[k - 1]] != values[open_[k]] and not any(
                    flags[i] == UNABLE for i in open_[:k])
            top = min(MOST, len(open_) - 1)
            # (every rank of two or more that takes the walk's record with no tie where
            # it cuts, the same steps for each: the smallest alone made most ranks "the
            # two newest"; and where it comes first, the rank of it alone: tried after
            # the others, as "the newest customer" is one errand)
            many = [k for k in range(max(place, 2), top + 1) if _cuts(k)]
            for k in [*many, *([1] if place == 1 <= top and _cuts(1) else [])]:
                passed = [i for i in ranked[:ranked.index(open_[k - 1])] if flags[i]
                          and flags[i] != UNABLE]  # (flagged, and would have come first)
                found.append(Selection(
                    key, "", (head, *(f"{where}[{i}]" for i in open_[:k] if i != index)),
                    tuple(f"{where}[{i}]" for i in ranked if i not in open_[:k]), order,
                    isinstance(values[index], str) or bool(set(split_words(key)) & _TIMES),
                    also=words_of[0] if passed else ""))
    return found


def is_measure(key: str, values: list[Any]) -> bool:
    """Whether every record holds field `key` as a measure: a number (a balance, a total)
    or a day (a due date), and no id or postcode."""
    if set(split_words(key)) & _NOT_MEASURES:
        return False
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return True
    return all(isinstance(v, str) and _DAY.match(v) for v in values)


def is_rule(key: str, value: Any, rules: Rules) -> bool:
    """Whether a record's field holds a rule of `rules`: a field saying one of its words,
    its value a short word or two (a plan "Gold", a country "DE"; no name, id, date or
    free text) and one of its values where it names some."""
    words = set(split_words(key))
    named = {"name"} if words & _EMPLOYERS else set()  # (a company's name: a rule)
    if not words & rules.fields or words & _NOT_RULES - named or not isinstance(value, str) \
            or _PLAIN.fullmatch(value.strip()) is None:
        return False
    return not rules.values or value.strip().lower() in rules.values


def _same(value: Any, rule: str) -> bool:
    return isinstance(value, str) and value.strip().lower() == rule.strip().lower()


def passes(calls: list[GoldCall], steps: list[int], size: int) -> list[list[GoldCall]]:
    """The first read and the calls made for each record, as a walk of one record each
    (`steps`: each plan step's own call, `size` steps to a workflow), with their sources
    numbered within it: what a guard of the workflow reads of one record's walk."""
    ends = [steps[i] for i in range(size - 1, len(steps), size - 1)]
    out: list[list[GoldCall]] = []
    begin = 1
    for last in ends:
        def renumber(step: int | None, begin: int = begin) -> int | None:
            return step if not step else step - begin + 1
        own = [call.model_copy(update={"bindings": {
            param: binding.model_copy(update={"step": renumber(binding.step)})
            for param, binding in call.bindings.items()}}) for call in calls[begin:last + 1]]
        out.append([calls[0], *own])
        begin = last + 1
    return out


def unnamed(calls: list[GoldCall]) -> list[Any]:
    """The values the records of a selection would each be named by (their selectors):
    values a request that names them by its rule does not state."""
    return [b.selector.value for call in calls for b in call.bindings.values()
            if b.kind == "hidden" and b.step == 0 and b.selector is not None]


def near_misses(calls: list[GoldCall], chosen: Selection) -> list[list[str] | None]:
    """Per record a selection leaves alone (its near-misses, and the chosen ones its copy
    found in the app already), the texts a call made for it would carry: what the first
    record's calls took of the first record (its email, its phone), taken of that one;
    none that a chosen record shares (two customers of one company). None for a record
    that holds none of them: the same steps cannot be made for it (a text to a customer
    with no phone number), so there is no act on it to check against."""
    first, paths = calls[0], taken(calls, chosen.heads[0])

    def texts(item: str) -> list[str]:
        return [value for path in paths
                if isinstance(value := _text_at(first.result, item + path), str)]
    mine = {text.lower() for item in chosen.heads for text in texts(item)}
    return [[text for text in held if text.lower() not in mine] if (held := texts(item))
            else None for item in (*chosen.others, *chosen.present)]


# what a report of the records acted on names them by: a field a person knows them by
_REPORTED = frozenset("name fullname displayname title subject email".split())


def reported(calls: list[GoldCall], chosen: Selection) -> list[AnswerItem]:
    """The answer of a for-each asked to report whom it acted on (the `aggregate`
    operator): each chosen record's own name (the field the walk's record is named by:
    its name, title or email), as the first read lists it, the near-misses' names its
    competitors (an agent that names one it left alone, or all it read, fails). [] where
    the records are named by no such field, or one of them holds none."""
    first = calls[0]
    field = next((b.selector.field for c in calls for b in c.bindings.values()
                  if b.kind == "hidden" and b.step == 0 and b.selector is not None), None)
    if field is None or not set(split_words(field)) & _REPORTED:
        return []
    items = []
    for head in chosen.heads:
        value = _text_at(first.result, f"{head}.{field}")
        if value is None:
            return []
        items.append(AnswerItem(step=0, path=f"{head}.{field}", value=value,
                                label=f"the {' '.join(split_words(field))} of a record "
                                "acted on",
                                selector=Selector(field=field, value=value)))
    return items


def taken(calls: list[GoldCall], head: str) -> list[str]:
    """Where, within record `head` of the first read, the later calls took their values
    (".email", ".phone"), or the words of their own text ("Follow up with" the ".name"):
    what the same steps would take of another record. (A near-miss with no phone is told
    apart by its name: a follow-up task filed for it carries that.)"""
    return sorted({b.path[len(head):] for call in calls[1:] for b in call.bindings.values()
                   if b.kind in ("hidden", "free") and b.step == 0 and b.path
                   and b.path.startswith(head + ".")})


def _text_at(data: Any, path: str) -> str | None:
    try:
        value = value_at(data, path)
    except KeyError:
        return None
    return value if isinstance(value, str) and value.strip() else None


def designed(call: GoldCall, head: str, total: int, rules: Rules, rng: random.Random,
             where_kept: tuple[str, str, str], needs: list[str] | tuple[str, ...] = (),
             skip: set[str] | frozenset[str] = frozenset()
             ) -> tuple[Selection, list[dict[str, Any]]] | None:
    """A selection the world is set up to hold: a rule of `rules` on a field the walk's
    record holds, its value given to one to three other records of the list and a value
    another record holds already given to the rest (the near-misses: an invoice "paid"
    beside the "overdue" ones), as the patch that sets them (`where_kept`: the service,
    collection and id field of the list's records). A label the workflow names (`tagged`:
    "vip") is given to the records chosen and taken from the rest, who keep their others.
    None where no field fits: one of `rules`, no filtered or partial list, and a second
    value in the list to leave the others with (none is made up). Only records that hold
    every text the steps take (`needs`: ".phone") are chosen, and one such record at
    least is left alone: a text cannot go to a customer with no phone, and a near-miss
    nobody could act on tells no careless agent apart. Nor is one of `skip` (a closed
    ticket, for a reply: what a guard of the workflow flags), which is left alone with
    the rest."""
    listed = whole_list(call, head, total)
    if listed is None or not all(isinstance(item, dict) for item in listed[1]):
        return None
    where, items, mine = listed
    service, collection, id_field = where_kept
    if any(id_field not in item for item in items):
        return None
    index = int(head.rpartition("[")[2].rstrip("]"))
    able = [i for i in range(len(items)) if i != index and f"{where}[{i}]" not in skip
            and all(_text_at(items[i], path.lstrip(".")) for path in needs)]
    if len(able) < 2:
        return None  # (none to choose beside the walk's record, or none to leave)

    def entry(i: int, key: str, value: Any) -> dict[str, Any]:
        return {"service": service, "collection": collection, "id": items[i][id_field],
                "field": key, "value": value}

    def chosen_and_left() -> tuple[list[int], list[int]]:
        picked = list(able)
        rng.shuffle(picked)
        chosen = sorted(picked[:rng.randint(2, min(MOST, len(picked))) - 1])
        return chosen, [i for i in range(len(items)) if i != index and i not in chosen]

    def selection(key: str, value: str, chosen: list[int], left: list[int]) -> Selection:
        return Selection(key, value, (head, *(f"{where}[{i}]" for i in chosen)),
                         tuple(f"{where}[{i}]" for i in left))
    for key, value in sorted(mine.items()):
        if not is_rule(key, value, rules) or set(split_words(key)) & (_PLACES | _EMPLOYERS):
            continue  # (a place agrees with the record's address, phone and postcode)
        others = sorted({v.strip() for item in items if isinstance(v := item.get(key), str)
                         and _PLAIN.fullmatch(v.strip()) and not _same(v, value)
                         and not (rules.values and v.strip().lower() in rules.values
                                  and set(split_words(key)) & rules.fields)})
        if not others:
            continue  # (no value of the list's own to leave the near-misses with)
        chosen, left = chosen_and_left()
        patch = [entry(i, key, value) for i in chosen if not _same(items[i].get(key), value)]
        patch += [entry(i, key, rng.choice(others)) for i in left
                  if _same(items[i].get(key), value) or not isinstance(items[i].get(key), str)]
        return selection(key, value.strip(), chosen, left), patch
    for key in sorted(k for k, v in mine.items() if rules.tags and isinstance(v, list)
                      and set(split_words(k)) & _LABELS):
        if not all(isinstance(item.get(key), list) and all(isinstance(t, str) for t in
                                                           item[key]) for item in items):
            continue
        tag = rng.choice(labels(key, mine[key], rules) or sorted(rules.tags))
        chosen, left = chosen_and_left()
        patch = [entry(i, key, [*items[i][key], tag]) for i in (index, *chosen)
                 if not _labelled(items[i][key], tag)]
        patch += [entry(i, key, [t for t in items[i][key] if not _same(t, tag)])
                  for i in left if _labelled(items[i][key], tag)]
        return selection(key, tag, chosen, left), patch
    return None
