"""The random walk: a seeded chain of calls along the dependency graph, executed as it goes.

The walk starts at a read tool, then repeatedly picks an output value of an earlier call
(recent calls weigh more, and values that name one thing, like emails and ids, more than
timestamps: `TYPE_WEIGHTS`), a tool that takes a value of that type (a cross-service one
with odds `cross_bias` to 1, and always one while the walk has not crossed services yet),
binds the arguments, and makes the call on its private world. A candidate whose call fails,
whose read returns nothing usable, or whose write changes nothing is dropped and another is
tried. The walk has a length budget (2 to 8 calls) and ends in a write (after a write it
stops with odds `end_on_write`) or, when its last call is a read, in an answer: a value of
that result the user asks for.

Arguments are bound either to an earlier output (hidden: the agent must find it) or to a
visible literal drawn from the world: an existing record's id or field for the tool's own
collection, else a realistic value of the parameter's schema. A required parameter of the
same type as another earlier output is joined to it (aggregation); an optional one is with
odds `join`. Infrastructure parameters (auth keys, api versions, formats, pagination:
specs/infra.py) are no fact of the task: never a link's target, never joined, never a
visible literal. An optional one is left out; a required one gets the value the environment
fills in (its default, else a schema-valid draw) with no binding, so neither the
instruction nor the task's values mention it.

Walking needs executable services, so the walk runs on a `World`-like object with
`call(tool, arguments)` and `service(name)` (compose's `LazyWorld`); it never does I/O.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from compoworld.compose.arguments import (
    call_arguments,
    head,
    is_path,
    nest,
    required_part,
    schema_at,
)
from compoworld.compose.instruction import render_value, visible_values
from compoworld.compose.naming import app_name, record_noun
from compoworld.compose.notes import reference_note, reference_subject
from compoworld.compose.patterns import (
    SUBJECT_NAMES,
    Apps,
    business_shares,
    carries,
    content_takers,
    feeds,
    fits,
    links,
    taken_by,
    title_param,
    tool_entity,
    vendor,
)
from compoworld.compose.records import PURPOSE, AnswerItem, Binding, GoldCall, Selector
from compoworld.compose.references import (
    acted_in,
    followed,
    is_sender,
    is_sender_name,
    item_head,
    own_record,
    paid_amount,
    start_of,
    status_of,
)
from compoworld.compose.situations import (
    INDUCTION,
    SET_UP,
    Purpose,
    app_kind,
    gist_for,
    meeting_purpose,
    set_up,
)
from compoworld.compose.values import (
    Found,
    find_values,
    mentions,
    named_alone,
    names_its_kind,
    primary_list,
    value_at,
)
from compoworld.compose.workflow import Step, Workflow
from compoworld.graph.depgraph import EDGE_THRESHOLD, DependencyGraph, ToolNode, is_link_type
from compoworld.graph.roles import role_of
from compoworld.graph.semtypes import (
    entity_id_type,
    is_entity_id,
    is_tenant_id,
    plainness,
    semantic_type,
    split_words,
)
from compoworld.services.runtime import Service
from compoworld.specs.infra import NO_DEFAULT, infrastructure_default, is_infrastructure
from compoworld.world.clock import NOW
from compoworld.world.coherence import moment_of
from compoworld.world.fieldsources import HANDLE_APPS, NAME_TYPES, PERSON_TYPES, field_role
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import (
    ACCOUNT_NAMES,
    IN_USE,
    our_address,
    our_page,
    our_sender_name,
)
from compoworld.world.state import State, canonical_json, json_text, string_leaves
from compoworld.world.vocab import stand_in_name
from compoworld.world.words import (
    COUNTRIES,
    FIRST_NAMES,
    LAST_NAMES,
    make_phone,
    phone_country,
)
from compoworld.worldmodel.offline import succeeded

START_FAILED = "start call failed or returned nothing usable"
# Why a workflow's step found no call, said after its failure ("no tool for step 2 (...)"),
# so that a team whose tools compose nothing learns what they lack
_FULL = "every app that takes what was found has its share of the run"
MEETING_SITUATIONS = ("meeting", "hire")  # situations about the meeting a workflow books
_NOTHING_FEEDS = "nothing the last call found is a value it takes"
_NO_TAKER = "no tool of an app it may use takes what was found"
KNOWN_THERE = "everyone found is known there already"
_WHEN = frozenset({"date", "datetime", "time"})  # a stated time is one record's own
# How strongly a value of a type ties two calls together: an email or an id names one
# thing; a timestamp fits any date parameter, so date links are followed less often.
TYPE_WEIGHTS = {"email": 4.0, "person_name": 4.0, "phone": 4.0, "url": 3.0, "company": 3.0,
                "address": 3.0, "username": 3.0, "filename": 3.0, "money": 2.0,
                "currency": 1.5, "city": 2.0, "country": 1.5, "postal_code": 2.0,
                "first_name": 2.0, "last_name": 2.0, "date": 0.7, "datetime": 0.5}
ID_WEIGHT = 3.0
ANSWER_TYPES = ("email", "person_name", "phone", "url", "company", "title", "money", "date",
                "datetime", "city", "address", "username", "filename", "country", "currency")
# What a workflow asks of the record it found: how to reach them, what they paid, where.
PATTERN_ANSWERS = ("email", "phone", "person_name", "company", "money", "address", "city",
                   "username")
# What a person is looked up for: how to reach them (not "I need to get in touch
# with Aiden Weber ... What is the customer's address line 1?").
_REACH = ("email", "phone")


class WalkWorld(Protocol):
    """What the walk needs of a world."""

    pool: Any

    def call(self, tool: str, arguments: Any) -> dict[str, Any]: ...

    def service(self, name: str) -> Service: ...


@dataclass(frozen=True, slots=True)
class WalkConfig:
    """The walk's knobs (all choices are drawn from the walk's own seeded rng)."""

    min_calls: int = 2
    max_calls: int = 8
    cross_bias: float = 4.0
    end_on_write: float = 0.5
    join: float = 0.3
    tries: int = 12
    edge_threshold: float = EDGE_THRESHOLD  # links scoring below it are not followed
    # how many of the shard's verified tasks each service is in so far: a workflow's next
    # app is drawn against it (`_by_app`), so that the five mail and text apps every
    # message step can use do not carry a run's messages between them
    spread: Mapping[str, int] | None = None
    # the most of them one service may be in: a step takes no app that has its share
    service_cap: int | None = None


BUSINESS_SHARE = 1 / 3  # share of a service's tools on business entities, for a pattern step
# ... and the share that does for an app of a business category (`BUSINESS_CATEGORIES`): a
# CRM, a shop or a payments app keeps business records however many of its tools set it
# up (Salesloft's cadences and saved views, Jumpseller's checkout fields, Adyen's terminals)
BUSINESS_CATEGORY_SHARE = 0.15
BUSINESS_CATEGORIES = frozenset({"customer_relation", "ecommerce", "payment", "enterprise",
                                 "support", "marketing", "email", "project_management",
                                 "time_management"})
# Per graph, what walks look up again and again (`_per_graph`: kept in `graph.memo`, so a
# shard's tables go with its library's graph instead of piling up in the worker process).
_BUSINESS = "business"  # service -> share
_TAKERS = "takers"  # value, step -> taken
_LISTERS = "listers"  # service -> reads
_LISTED = "listed"  # service, id -> lists
_WITHIN = "within"  # service, id -> lists within a record found


def _per_graph(table: str, graph: DependencyGraph, make: Callable[[], Any]) -> Any:
    """`graph`'s table `table`, made by `make` the first time."""
    found = graph.memo.get(table)
    if found is None:
        found = graph.memo[table] = make()
    return found


@dataclass(slots=True)
class Walk:
    """The calls a walk made (with their results), the answer it asks for, or why it failed."""

    calls: list[GoldCall] = field(default_factory=list)
    answer: list[AnswerItem] = field(default_factory=list)
    failure: str | None = None
    # per call, the list item a patterned walk is about (`data[2]`): a workflow follows one
    # payment, one person, never a second item of the same list
    subject: dict[int, str] = field(default_factory=dict)
    about: str = ""  # the entity of a pattern's first step: what the workflow is about
    gist: str = ""  # what the workflow's message says (`Workflow.gist`)
    apps: Apps | None = None  # the services a patterned walk may call, per step
    # a meeting booked with the person a workflow is about: what it is for (the workflow's
    # own `Workflow.meeting`, else drawn when it is booked: `_purpose`), and where they
    # are (their time zone: the request and the invitation say its time as theirs)
    meeting: Purpose | None = None
    place: Any = None
    pattern: str = ""  # the workflow's name (`Workflow.name`)
    situation: str = ""  # how its request opens (`Workflow.situation`)
    # the situation of the workflow (of a job's parts) whose booking is the meeting it is
    # about, with a purpose: "meeting", a new colleague's "hire", or "" (`_books_meeting`)
    meets: str = ""
    headline: str = ""  # the subject line of its email (`Workflow.subject`)
    channels: tuple[str, ...] = ()  # the channels its post may go to (`Workflow.channels`)
    blocked: str = ""  # why its last step found no call (`_step`), for its failure
    # the values each call found: what a walk that repeats its steps for another record
    # (`repeat_steps`) goes on from
    found: list[list[Found]] = field(default_factory=list)
    steps: list[int] = field(default_factory=lambda: [0])  # each plan step's own call
    repeated: str = ""  # the first record, whose steps a repeat makes again (`repeat_steps`)


def random_walk(
    graph: DependencyGraph, world: WalkWorld, start: str, rng: random.Random,
    config: WalkConfig = WalkConfig(), plan: Workflow | None = None,
    apps: Apps | None = None,
) -> Walk:
    """Walk from `start` (a read tool), executing each call on `world`; with `plan` (a
    workflow pattern whose first step `start` fits) one call per step of the pattern, each
    a tool that fits its step and takes a value of an attribute the step asks for, in one
    `apps` allows for it (every service, when None)."""
    node = graph.nodes[start]
    walk = Walk(about=plan.steps[0].entity if plan else "", apps=apps)
    if plan is not None:
        _adopt(walk, plan, node, plan.situation)
    found, called = walk.found, set[bytes]()
    arguments, bindings = _bind(graph, world, node, None, walk, found, rng, config)
    if plan is not None and (not _sayable(arguments, bindings) or _searched(bindings)):
        walk.failure = START_FAILED  # `name is ["Spring Name"]`: no filter anyone states
        return walk
    if not _attempt(world, node, arguments, bindings, walk, found, called,
                    strict=plan is not None):
        walk.failure = START_FAILED
        return walk
    target = len(plan.steps) if plan else rng.randint(config.min_calls, config.max_calls)
    done = 1  # calls made for the plan's steps (lookups a step needed come on top)
    while (done if plan else len(walk.calls)) < target:
        step = plan.steps[done] if plan else None
        if not _step(graph, world, rng, config, walk, found, called, step,
                     last=done + 1 == target):
            break
        done += 1
        walk.steps.append(len(walk.calls) - 1)
        if plan is None and graph.nodes[walk.calls[-1].tool].writes \
                and len(walk.calls) >= config.min_calls and rng.random() < config.end_on_write:
            break
    if plan is not None and done < target:
        walk.failure = f"pattern {plan.name}: no tool for step {done + 1}" + (
            f" ({walk.blocked})" if walk.blocked else "")
        return walk
    if len(walk.calls) < config.min_calls:
        walk.failure = "no next step"
        return walk
    if not _crossed(walk):
        walk.failure = "stayed in one service"
        return walk
    if walk.calls[-1].effect == "read":
        item = _answer(walk, found[-1], rng, ANSWER_TYPES if plan is None else _REACH
                       if plan.steps[-1].entity == "person" else PATTERN_ANSWERS)
        if item is None:
            walk.failure = "nothing to ask for in the last result"
            return walk
        walk.answer.append(item)
    return walk


# What a walk takes from the workflow it follows (`_adopt`), and gives back where a job's
# later part is undone (`go_on`)
_ADOPTED = ("pattern", "gist", "situation", "headline", "channels", "meeting", "meets")


def _adopt(walk: Walk, plan: Workflow, start: ToolNode, meets: str) -> None:
    """Make `plan` (a workflow, or a job) the one `walk` follows from its start tool: its
    name, message, opening, subject line and channels; the meeting it is about where the
    walk has none yet, and `meets`, the situation of the part that books it, where that is
    a meeting's."""
    walk.pattern, walk.situation, walk.headline = plan.name, plan.situation, plan.subject
    walk.gist = gist_for(plan, record_noun(start.name, start.effect, start.resource))
    walk.channels, walk.meeting = plan.channels, walk.meeting or plan.meeting
    walk.meets = walk.meets or (meets if meets in MEETING_SITUATIONS else "")


def repeat_steps(graph: DependencyGraph, world: WalkWorld, walk: Walk, plan: Workflow,
                 heads: tuple[str, ...], rng: random.Random,
                 config: WalkConfig = WalkConfig(), ensure: bool = False,
                 accept: Callable[[Walk], bool] | None = None
                 ) -> tuple[str, ...] | None:
    """Make a patterned walk's later steps once more for each item of `heads` of its first
    call's list (`data[4]`): the same tools, stating the same values, on what that item and
    the calls made for it find (never on what another record's calls found). All or none:
    None, with the walk and its world as they were, when a step finds no call for one of
    them (by its own guards, as the first time). With `ensure`, an item its copy finds in
    the app already is passed over, not a failure (add only who is missing): the items
    passed over are returned. With `accept`, the walk made for all of them is kept only
    where it says so (a workflow's guards, asked of each record's walk: a reminder made for
    an event that is over is none), else undone the same way."""
    first = [walk.calls[i] for i in walk.steps[1:]]
    mark, subject, steps = len(walk.calls), dict(walk.subject), list(walk.steps)
    kept = {call.service: world.service(call.service).state.copy() for call in first}
    walk.repeated = subject.get(0, "")
    passed: list[str] = []

    def undo() -> None:
        del walk.calls[mark:], walk.found[mark:]
        walk.subject, walk.steps = subject, steps
        for name, state in kept.items():  # (what the records' steps wrote)
            _put_back(world.service(name), state)
    for item in heads:
        begun, stepped = len(walk.calls), len(walk.steps)
        found = [walk.found[0]] + [[] for _ in walk.found[1:]]  # (others' calls unseen)
        called = {canonical_json([walk.calls[0].tool, walk.calls[0].arguments])}
        walk.subject = {0: item}
        for number, (step, only) in enumerate(zip(plan.steps[1:], first, strict=True), 2):
            if _step(graph, world, rng, config, walk, found, called, step,
                     last=number == len(plan.steps), only=only):
                walk.steps.append(len(walk.calls) - 1)
                continue
            if ensure and walk.blocked == KNOWN_THERE and all(
                    c.effect == "read" for c in walk.calls[begun:]):
                del walk.calls[begun:], walk.steps[stepped:]  # (a find made for it, too)
                passed.append(item)  # (there already: nothing to add)
                break
            undo()
            return None
        else:
            walk.found.extend(found[begun:])
            subject |= {i: h for i, h in walk.subject.items() if i >= begun}
    walk.subject = subject
    if accept is not None and not accept(walk):
        subject = {i: h for i, h in subject.items() if i < mark}
        undo()
        return None
    return tuple(passed)


def go_on(graph: DependencyGraph, world: WalkWorld, walk: Walk, job: Workflow,
          rng: random.Random, config: WalkConfig = WalkConfig(),
          accept: Callable[[Walk], bool] | None = None, meets: str = "") -> bool:
    """Go on from a walk that made every step of a job's first parts into the steps of
    its last one (`workflow.job`), about the same record: the job's message, meeting and
    channels are now the walk's (`meets`: the last part's situation, where it books a
    meeting about which it is: a new lead's intro call has a purpose, not a line of
    filler as its title). All or none: False, with the walk and its world as they
    were, where a step finds no call, or where `accept` (the job's guards, asked of the
    whole walk) says no."""
    mark, steps, subject = len(walk.calls), list(walk.steps), dict(walk.subject)
    services = getattr(world, "services", {})
    kept = {name: service.state.copy() for name, service in services.items()}
    said = {name: getattr(walk, name) for name in _ADOPTED}
    _adopt(walk, job, graph.nodes[walk.calls[0].tool], meets)
    called = {canonical_json([call.tool, call.arguments]) for call in walk.calls}
    done = len(walk.steps)
    while done < len(job.steps):
        if not _step(graph, world, rng, config, walk, walk.found, called, job.steps[done],
                     last=done + 1 == len(job.steps)):
            break
        done += 1
        walk.steps.append(len(walk.calls) - 1)
    if done == len(job.steps) and (accept is None or accept(walk)):
        return True
    del walk.calls[mark:], walk.found[mark:]
    walk.steps, walk.subject = steps, subject
    for name, value in said.items():
        setattr(walk, name, value)
    for name in list(services):  # (what its steps wrote, and the apps they first reached)
        if name in kept:
            _put_back(services[name], kept[name])
        else:
            del services[name]
    return False


def _as_before(arguments: dict[str, Any], bindings: dict[str, Binding], only: GoldCall,
               walk: Walk) -> bool:
    """Whether a repeated step's call states what the first record's call stated (the
    request says it once, for every record), taking those values, and takes again what
    that call took from a lookup made for it (the section its task went into); False
    where it states
    something else, or where what was stated was a fact of the first record itself: one
    of its texts, one that mentions it, or a time (a thank-you "for our meeting on
    February 27" is the first meeting's day, not the second's)."""
    before = call_arguments(only)
    try:
        texts = [v for _, v in string_leaves(value_at(walk.calls[0].result, walk.repeated))]
    except KeyError:
        texts = []
    facts = {canonical_json(v) for v in texts}
    texts = [v for v in texts if len(v) >= 4]
    for param, binding in bindings.items():
        if binding.kind != "visible":
            continue
        was = only.bindings.get(param)
        if was is not None and was.kind == "hidden" and was.step is not None \
                and was.step not in walk.steps and param in before \
                and canonical_json(before[param]) not in facts:
            # (found by a lookup made for the first record's call, no step of its own: the
            # project and section its follow-up task went into hold every record's too,
            # looked up once)
            arguments[param], bindings[param] = before[param], was
            continue
        if was is None or was.kind != "visible" or param not in before \
                or canonical_json(before[param]) in facts or binding.type in _WHEN \
                or any(mentions(render_value(before[param]), text) for text in texts):
            return False
        arguments[param] = before[param]
    return True


def _step(
    graph: DependencyGraph, world: WalkWorld, rng: random.Random, config: WalkConfig,
    walk: Walk, found: list[list[Found]], called: set[bytes], plan: Step | None = None,
    last: bool = False, only: GoldCall | None = None,
) -> bool:
    crossed = _crossed(walk)
    stated = [render_value(v) for v in visible_values(walk.calls, walk.answer)]
    passable = [[f for f in values if links(f.type, plan)
                 and (not _said(f.value, stated) or _titled_by(plan, f))
                 and (plan is None or (feeds(graph, walk.calls[i].tool, f.field, f.type, plan)
                                       and _on_subject(walk, i, f) and _own_id(graph, walk, i, f)
                                       and "fax" not in split_words(f.field or "")
                                       and _sole_entry(walk.calls[i], f)
                                       and _theirs(f.field, f.type, walk.about)
                                       and _matches_filters(walk.calls[i], f)
                                       and _addressable(walk.calls[i], f, plan)
                                       and (i > 0 or bool(walk.repeated)  # (named by
                                            # the rule that chose them: `repeat_steps`;
                                            # or by what an earlier step took of it: a
                                            # job's follow-up task titled by the name of
                                            # the customer its message went to)
                                            or walk.subject.get(0) is not None
                                            or _nameable(walk.calls[0], f, walk.about))
                                       and not _looked_up_by(walk.calls[i], f)
                                       and _taken_by(graph, walk.calls[i].tool, f, plan,
                                                     config.edge_threshold)))]
                for i, values in enumerate(found)]
    steps = [i for i, values in enumerate(passable) if values]
    if plan and walk.calls[-1].effect == "read" and len(walk.calls) > 1:
        steps = [i for i in steps if i == len(walk.calls) - 1]  # a read feeds what follows
    if not steps:
        walk.blocked = _NOTHING_FEEDS
        return False
    why: Counter[str] = Counter()  # why each try failed: the commonest says why the step did
    for _ in range(config.tries):
        step = rng.choices(steps, weights=[(i + 1) ** 2 for i in steps])[0]
        sources = passable[step]
        if plan and plan.entity in _WHO_ENTITIES:  # a new contact linked by who they are
            sources = [f for f in sources if f.type not in _DETAILS] or sources
        source = rng.choices(sources, weights=[_weight(f.type) for f in sources])[0]
        here = walk.calls[step].service
        takers = [(t, p) for t, p in graph.linked_consumers(
                      walk.calls[step].tool, source.field, source.type, config.edge_threshold)
                  if (graph.nodes[t].effect == "read" or graph.nodes[t].writes)
                  and (plan is None or fits(graph.nodes[t], plan))]
        if _titled_by(plan, source):  # a follow-up task titled by their name
            takers += [c for c in content_takers(graph, plan) if c not in takers]
        if plan:  # an Airflow user is no lead's new home; a copy into its own app, or its
            # vendor's other API (OnSched Consumer -> OnSched Setup), no copy
            copy = plan.entity == walk.about and "create" in plan.effects \
                and not _names_record(source)  # (a refund of the payment by its own id is none)
            # (Twilio sends texts, though most of its tools are about calls)
            takers = [c for c in takers if (plan.entity == "message"
                                            or _business(graph, graph.nodes[c[0]].service,
                                                         walk.apps)
                                            or _a_calendar(walk, plan, graph.nodes[c[0]]))
                      and not (plan.entity in ("message", "event")
                               and _name_for_address(graph.nodes[c[0]], c[1]))
                      and not _from_us(plan, graph.nodes[c[0]], c[1])
                      and (walk.apps is None or walk.apps.allow(graph.nodes[c[0]].service, plan))
                      and not (copy and vendor(graph.nodes[c[0]].service) == vendor(here))
                      and not _sibling_api(plan, graph.nodes[c[0]].service, here)
                      and not _odd_home(world, walk, plan, graph.nodes[c[0]].service)
                      and not _other_side(graph, walk, plan, graph.nodes[c[0]])
                      and not _texts_abroad(world, graph.nodes[c[0]], source)
                      and (only is None or c[0] == only.tool)]
        cross = [c for c in takers if graph.nodes[c[0]].service != here]
        if plan:  # each step of a workflow in an app of its own, where one offers it
            used = {call.service for call in walk.calls}
            cross = [c for c in cross if graph.nodes[c[0]].service not in used] or cross
        same = [c for c in takers if graph.nodes[c[0]].service == here]
        # a pattern's steps are different apps where they can be (lead -> CRM -> mail)
        bias = 1.0 if not crossed or plan else config.cross_bias / (1 + config.cross_bias)
        options = cross if cross and (not same or rng.random() < bias) else same
        if plan and last and not crossed:
            options = cross  # the pattern's last step: the task must cross services by now
        if plan and plan.home:
            options = same  # a refund is made where the payment was
        if not options:
            why[_NO_TAKER] += 1
            continue
        if plan and config.service_cap is not None and config.spread is not None:
            options = [o for o in options  # (an app with its share of the shard's tasks)
                       if config.spread.get(graph.nodes[o[0]].service, 0) < config.service_cap]
            if not options:
                why[_FULL] += 1
                continue
        target, param = _by_app(graph, options, rng, config.spread) if plan \
            else rng.choice(options)
        node = graph.nodes[target]
        if param in _environment_params(world.service(node.service), node):
            why["what was found would fill a setting"] += 1
            continue  # an api key or a page size never carries a found value
        if not _same_units(source, _schema(world, node, param)):
            why["its amounts are in other units"] += 1
            continue  # Velo's 84470 (minor units) is no Avaza amount of 84,470
        if plan and not _textable(walk, step, source, node):
            why["the number found takes no texts"] += 1
            continue  # (the value the step is linked by, too: no text to a business line)
        if plan and copy:  # a lead copied where they are already known adds nobody new
            source = _newcomer(world, node, found[step], sources, source, rng,
                               _WHO_KEYS.get(walk.about, _WHO_KEYS[""]))
            if source is None:
                why[KNOWN_THERE] += 1
                continue
        arguments, bindings = _bind(graph, world, node, (param, step, source), walk, found, rng,
                                    config, patterned=plan is not None)
        if plan and plan.title and node.params.get(param) == "title" != source.type:
            _titled(plan, node, param, (step, source), arguments, bindings)
        elif plan and plan.title and (title := title_param(node)) in bindings \
                and bindings[title].kind == "visible" and (name := _subject_name(walk, found)):
            _titled(plan, node, title, name, arguments, bindings)  # (a SalesLoft task for
            # the person, titled "Follow up with ...", not "Schedule the quarterly report")
        mark = len(walk.calls)
        if only is not None and not _as_before(arguments, bindings, only, walk):
            why["it would state other values than for the first record"] += 1
            continue
        if plan and not _sayable(arguments, bindings):
            why["its call needs values nobody would state"] += 1
            continue  # "amount {}", or a twelve-field order item: no fact anyone would state
        if plan and node.effect == "read" and any(
                b.kind == "visible" and b.type in PERSON_TYPES for b in bindings.values()):
            why["its read would look up somebody else"] += 1
            continue  # the order's customer looked up by somebody else's email
        if plan and not _substantial(graph, walk, plan, node, arguments, bindings):
            why["its call would carry too little of the record"] += 1
            continue  # a refund without its amount, a contact made of one phone number
        if plan and not _look_up_ids(graph, world, node, arguments, bindings, walk, found,
                                     called, rng, plan.filed, plan.unfiled):
            why["an id its call needs has no list to find it by name"] += 1
            continue  # "forward the message mes_0006": nobody knows a record by its id
        if _attempt(world, node, arguments, bindings, walk, found, called,
                    strict=plan is not None):
            return True
        why["its call failed, changed nothing or answered for another record"] += 1
        _undo(walk, found, called, mark)
    walk.blocked = why.most_common(1)[0][0] if why else ""
    return False


def _titled_by(plan: Step | None, value: Found) -> bool:
    """Whether a value may title what `plan` makes, though the request says it: the name
    of the person a follow-up task is for, named in its title (`Step.title`)."""
    return plan is not None and bool(plan.title) and value.type in SUBJECT_NAMES


def _subject_name(walk: Walk, found: list[list[Found]]) -> tuple[int, Found] | None:
    """The full name of the person (else the company) the walk is about, where it read
    one: (its call, the value)."""
    names = [(f.type != "person_name", i, f) for i, values in enumerate(found) for f in values
             if f.type in SUBJECT_NAMES and i in walk.subject
             and item_head(f.path) == walk.subject[i]]
    return min(names, key=lambda n: n[:2])[1:] if names else None


def _titled(plan: Step, node: ToolNode, param: str, source: tuple[int, Found],
            arguments: dict[str, Any], bindings: dict[str, Binding]) -> None:
    """A record titled by whom it is about: its title, in the agent's words, names the
    subject (`Step.title`: "Follow up with Julia Nguyen"), and its binding says whose
    name it carries (`source`: the call and the value), so its check wants that name in
    it."""
    step, name = source
    arguments[param] = plan.title.format(s=render_value(name.value))
    bindings[param] = Binding(kind="free", type="title", step=step, field=name.field,
                              path=name.path)
    for other, binding in list(bindings.items()):  # (its notes are no note to the person:
        if binding.kind == "free" and other != param:  # "Sofia, a quick note reminding
            if other in node.required:  # you..." in a task's description)
                arguments[other] = arguments[param]
            else:
                del arguments[other], bindings[other]


def _channel(service: Service, kind: str, schema: dict[str, Any], names: tuple[str, ...],
             rng: random.Random) -> Any:
    """The channel a workflow's post goes to: one of its `names`, as the parameter takes it
    (a channel record's id where it takes one, looked up by name later: `_look_up_ids`);
    "" (no fact anyone states, so no walk) where the app keeps none of them."""
    collection = _collection_of(service, kind)
    if collection is None:
        return _coerce(rng.choice(names), schema)
    ids = [key for key, record in sorted(service.state.records(collection).items())
           if any(isinstance(v, str) and v.lstrip("#") in names for v in record.values())]
    return _coerce(rng.choice(ids), schema) if ids else ""


def _collection_of(service: Service, kind: str) -> str | None:
    """The collection of `service` whose records an id of type `kind` names (None for no
    entity id, or one of another service)."""
    if not is_entity_id(kind):
        return None
    return next((c for c in sorted(service.state.schemas)
                 if entity_id_type(service.name, c) == kind), None)


def _by_app(graph: DependencyGraph, options: list[tuple[str, str]], rng: random.Random,
            spread: Mapping[str, int] | None = None) -> tuple[str, str]:
    """One of `options` (tool, parameter), its app drawn first, each app alike: an app of
    many tools and parameters (an MCP server of all of Google Workspace, a mail API that
    takes twenty addresses) would otherwise carry most of a workflow's steps. With
    `spread` (the shard's verified tasks per service), an app already in `k` of them is
    drawn with odds 1 / (1 + k): the apps a shard has not used yet come first."""
    apps = sorted({graph.nodes[tool].service for tool, _ in options})
    app = rng.choices(apps, weights=[1 / (1 + spread.get(a, 0)) for a in apps])[0] \
        if spread else rng.choice(apps)
    return rng.choice([o for o in options if graph.nodes[o[0]].service == app])


# `to-908`, `cnpj-489`, `merchant-account-658`: a schema's stand-in, no value anyone knows.
_PLACEHOLDER = re.compile(r"^[a-z]+(?:[-_][a-z]+)*[-_]\d{1,4}$")


def _from_us(step: Step, node: ToolNode, param: str) -> bool:
    """Whether `param` of a message step's tool is who the message is from, or where its
    answers go: us, never the value the workflow carries (a reminder "sent" with its
    guest's address as Mandrill's `from_email`, or only as GSMTasks' `reply_to_email`,
    reminded nobody)."""
    return step.entity == "message" and (is_sender(param, node.params.get(param, ""))
                                         or split_words(param)[:2] == ["reply", "to"])


def _says_failed(data: Any) -> bool:
    """Whether a result reports a failure of its own: an HTTP error (`{"status": 404}`),
    `"success": false`, an error message or code (`{"ErrorCode": 16, "ErrorMessage": ...}`),
    a `"status": "Failed"`. A mock answer that says so contradicts the call it answers."""
    if not isinstance(data, dict):
        return False
    code = next((data[k] for k in ("status", "status_code", "statusCode", "code")
                 if isinstance(data.get(k), int) and not isinstance(data.get(k), bool)), None)
    return (code is not None and code >= 400) or succeeded(data) is not data


def _honoured(arguments: dict[str, Any], bindings: dict[str, Binding], data: Any) -> bool:
    """Whether a read's result holds every text value it was filtered by: a result that
    does not was answered as if the filter were not there, and a task built on it would
    contradict itself."""
    text = json_text(data)
    return all(not isinstance(value, str) or len(value) < 3 or json_text(value)[1:-1] in text
               for param, value in arguments.items() if param in bindings)


_ADDRESSES = {"email": re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.I),
              "phone": re.compile(r"^\+\d{7,15}$")}


def _contradicts(arguments: dict[str, Any], bindings: dict[str, Binding], data: Any) -> bool:
    """Whether a write's result names another address than the one it was given: a text
    sent to +1 917 ... whose answer says it went to +254 718 ... contradicts the call it
    answers (a modeled answer that echoes nothing of it), and so does one that lists a
    second recipient nobody sent to (a Mandrill send "delivered" to two strangers beside
    its guest). The sender's own address may stand beside the recipient's."""
    found = {kind: {text.lower() for key, text in string_leaves(data) if pattern.match(text)
                    and not is_sender(key, kind)}  # (our own mailbox's `from_email`)
             for kind, pattern in _ADDRESSES.items()}
    senders = {str(v).lower() for p, v in arguments.items()
               if p in bindings and is_sender(p, bindings[p].type)}
    for param, binding in bindings.items():
        if binding.kind != "hidden" or binding.type not in _ADDRESSES or is_sender(
                param, binding.type):
            continue
        given = {str(v).lower() for v in _entries(arguments.get(param))}
        theirs = found[binding.type] - senders
        if given and theirs and (not given & theirs or theirs - given):
            return True
    return False


def _taken_by(graph: DependencyGraph, tool: str, value: Found, step: Step,
              threshold: float) -> bool:
    """Whether some tool fitting `step` takes this output of `tool` along a kept edge: the
    walk spends its tries on values the step can use, not on ids only their own app takes."""
    cached = _per_graph(_TAKERS, graph, dict)
    key = (tool, value.field, value.type, step, threshold)
    if key not in cached:
        cached[key] = taken_by(graph, tool, value.field, value.type, step, threshold)
    return cached[key]


def _business(graph: DependencyGraph, service: str, apps: Apps | None = None) -> bool:
    """Whether a service is an app for business records: at least a third of its tools work
    on an entity of the ontology (contacts, invoices, tickets, meetings...), or, in an app
    `apps` files under a business category, `BUSINESS_CATEGORY_SHARE` of them. (An app of
    a bank's or a market's data, or Airflow's DAG runners, is none: its category says so.)"""
    shares = _per_graph(_BUSINESS, graph,  # one pass over the graph, not per service
                        lambda: business_shares(graph.nodes.values()))
    share = shares.get(service, 0.0)
    category = apps.categories.get(service) if apps is not None and apps.categories else None
    return share >= BUSINESS_SHARE or (category in BUSINESS_CATEGORIES
                                       and share >= BUSINESS_CATEGORY_SHARE)


def _name_for_address(node: ToolNode, param: str) -> bool:
    """Whether a message's or an event's parameter is its recipient's or guest's name where
    the tool takes their address: linked by the name, an email went out with no address
    (Mandrill's `to[0].name` without `to[0].email`), and a guest's optional display name
    was checked though nobody asked for it. A channel post naming a colleague is no such
    tool."""
    return node.params.get(param) in NAME_TYPES and any(
        kind in ("email", "phone") and not is_sender(p, kind) for p, kind in node.params.items())


def _a_calendar(walk: Walk, step: Step, node: ToolNode) -> bool:
    """Whether an event step's tool is in an app the run keeps as a calendar: Google
    Calendar is one, though most of its tools are about calendars, access lists and
    settings rather than events (`_business` would count it out)."""
    calendars = walk.apps.calendars if walk.apps is not None else None
    return step.entity == "event" and calendars is not None and node.service in calendars


# What tells that an app knows the person (or the company) a copy would add: a new contact
# at a company the app knows is still somebody new.
_WHO_KEYS = {"org": frozenset({"company"}), "": frozenset({"email", "person_name"}),
             "ticket": frozenset({"title"}), "task": frozenset({"title"})}  # (an issue
# copied into a tracker that has it under its title already adds nothing)


def _newcomer(world: WalkWorld, node: ToolNode, values: list[Found], sources: list[Found],
              source: Found, rng: random.Random, keys: frozenset[str]) -> Found | None:
    """`source`, or another item's value of the same field, whose item the app of `node`
    does not know yet: a person by email or full name anywhere in its records, a company by
    name among the records `node` makes (a CRM's contacts at Globex leave room for an
    account of Globex). Adding a lead the target app already holds is no new contact (94
    of 105 lead -> contact -> welcome tasks of compose f did). None when every item is
    known there."""
    held = world.service(node.service).state.collections
    if "company" in keys and node.resource in held:
        held = held[node.resource]
    text = json_text(held).lower()

    def known(candidate: Found) -> bool:
        head = item_head(candidate.path)
        return any(json_text(f.value).lower() in text for f in values
                   if item_head(f.path) == head and f.type in keys
                   and isinstance(f.value, str) and f.value)

    if not known(source):
        return source
    fresh = [f for f in sources if f.field == source.field and f.type == source.type
             and not known(f)]
    return rng.choice(fresh) if fresh else None


def _sayable(arguments: dict[str, Any], bindings: dict[str, Binding]) -> bool:
    """Whether a call's visible values are facts a person states: at most four, each a
    plain non-empty scalar (no JSON list or object), no placeholder, no cut-off phone
    number; and whether its person is one person (a contact's carried email never beside
    another person's drawn name)."""
    kinds = {b.kind for p, b in bindings.items() if b.type in PERSON_TYPES
             and not is_sender(p, b.type)}  # (our own number is no second person)
    if {"hidden", "visible"} <= kinds:
        return False
    shown = [(arguments[p], b.type) for p, b in bindings.items()  # ids: looked up by name
             if b.kind == "visible" and not is_entity_id(b.type)]
    if len(shown) > 4:
        return False
    if any(b.kind == "visible" and b.type == "url" and set(split_words(p)) & _RECORD_NOUNS
           for p, b in bindings.items()):
        return False  # GSMTasks' `account` is its API's URL of the account: nobody dictates
        # one, and a drawn web page as a task's account is no account at all
    for value, kind in shown:
        if value == "" or isinstance(value, list | dict):
            return False  # `roles ["member", "member"]`: JSON, not what a person says
        if isinstance(value, str) and _PLACEHOLDER.match(value):
            return False
        if kind == "phone" and len(re.sub(r"\D", "", str(value))) < 8:
            return False  # "+73" is a schema's cut, no phone number
    return True


# What a parameter that takes a URL may name a record by (`account`, `assignee_url`): an
# API's address of one of its records, never a fact a person states.
_RECORD_NOUNS = frozenset("account accounts user users owner assignee project projects team "
                          "organization organisation workspace contact customer parent "
                          "category".split())


# A read's free-text search parameters: a search term is how a tool finds records, never
# a fact of the record ("the user in GitHub whose q is "roadmap"" names nobody).
_SEARCH_TERMS = frozenset({("q",), ("query",), ("search",), ("term",), ("keyword",),
                           ("keywords",), ("search", "term"), ("search", "query"),
                           ("search", "text")})


def _search_term(param: str) -> bool:
    return tuple(split_words(param)) in _SEARCH_TERMS


def needs_a_search(node: ToolNode) -> bool:
    """Whether a read cannot be called without a free-text search term: no workflow begins
    there, since its request would name the subject by the term (`_searched`). Stripe's
    `get_customers_search` began 9 walks of a run, and every one failed."""
    return any(_search_term(p) for p in node.required)


def _searched(bindings: dict[str, Binding]) -> bool:
    """Whether a workflow's first read states a free-text search term: the request would
    name its subject by it."""
    return any(b.kind == "visible" and _search_term(p) for p, b in bindings.items())


def _look_up_ids(
    graph: DependencyGraph, world: WalkWorld, node: ToolNode, arguments: dict[str, Any],
    bindings: dict[str, Binding], walk: Walk, found: list[list[Found]], called: set[bytes],
    rng: random.Random, filed: frozenset[str] = frozenset(),
    unfiled: frozenset[str] = frozenset(),
) -> bool:
    """Replace each visible record id of a call by a lookup: a list read of the same service
    made first, the record named by a field of it ("the channel named "general""), its id
    hidden, preferring one named where the step files what it makes (`filed`), and none
    named where it never does (`unfiled`) where another is. False (nothing kept) when an
    id cannot be looked up."""
    mark = len(walk.calls)
    for param, binding in sorted(bindings.items()):
        if binding.kind != "visible" or not is_entity_id(binding.type):
            continue
        listers = [name for name in _listers(graph, node.service, binding.type)
                   if name != node.name]
        if not listers and is_tenant_id(binding.type):
            ours = _our_account(graph, world, node, binding.type, walk, found, called)
            if ours is not None:  # "our "Sales" account": found by its name, no id said
                arguments[param] = _coerce(ours[1].value, _schema(world, node, param))
                bindings[param] = _hidden(ours[1], ours[0])
            elif any(other.resource == binding.type.split(".")[1]
                     for other in _reads(graph, node.service)):
                _undo(walk, found, called, mark)  # accounts listed, none ours by its name:
                return False  # no "on the "AC68570f..." account": nobody says it
            continue  # else "our company in Codat is ...": the user's own id, theirs to say
        tries = [(name, {}, {}, {}) for name in listers[:3]] or _scoped_listers(
            graph, node.service, binding.type, arguments, bindings, found, walk, rng, filed,
            unfiled)
        hit = None
        for lister, given, given_bindings, moves in tries:
            step = fresh = len(walk.calls)
            if step > mark and walk.calls[-1].tool == lister:
                step -= 1  # one list serves two ids (a channel and its message)
            elif not _attempt(world, graph.nodes[lister], given, given_bindings, walk, found,
                              called):
                continue
            scope = {b.type: canonical_json(given[p]) for p, b in given_bindings.items()}
            if given:  # (the one section of a project is named too)
                found[step] = [named_alone(walk.calls[step].result, f,
                                           graph.nodes[lister].outputs) for f in found[step]]
            named = [f for f in found[step] if f.type == binding.type and f.selector is not None
                     and not isinstance(f.selector.value, bool)
                     and not _elsewhere(f, found[step], scope)]
            if named:
                hit = step, rng.choice(_fitting(
                    _current(named, walk.calls[step].result) or named, walk, filed, unfiled))
                for moved, (value, held_at) in moves.items():  # (within another project)
                    arguments[moved] = _coerce(value.value, _schema(world, node, moved))
                    bindings[moved] = _hidden(value, held_at)
                    walk.subject[held_at] = item_head(value.path)
                break
            if step == fresh and given:  # (a list within a record that
                _undo(walk, found, called, step)  # named none of it: no reference call to
                # no end)
        if hit is None:
            _undo(walk, found, called, mark)
            return False
        step, value = hit
        arguments[param] = _coerce(value.value, _schema(world, node, param))
        bindings[param] = _hidden(value, step)
    return True


# a tenant record we send from: one in use, known by its name
_ACCOUNT_IDS = ("sid", "id")


def _our_account(
    graph: DependencyGraph, world: WalkWorld, node: ToolNode, kind: str, walk: Walk,
    found: list[list[Found]], called: set[bytes],
) -> tuple[int, Found] | None:
    """Our own account at a service (Twilio's `AccountSid`), looked up instead of said: the
    service's list of its tenant records (`list_account`) read, and the first one in use
    with a name no other shares taken, by its name (not "(account
    "AC7cfcca...")" pasted into a request; nobody recites an account id, people
    know their account's name). The same account in every task of a world. None (nothing
    kept) where the service lists no such records or none is in use and named."""
    resource = kind.split(".")[1]
    readers = sorted(other.name for other in _reads(graph, node.service)
                     if other.resource == resource)
    mark = len(walk.calls)
    for reader in readers[:2]:
        step = len(walk.calls)
        if not _attempt(world, graph.nodes[reader], {}, {}, walk, found, called):
            continue
        result = walk.calls[step].result
        key, items = next(((k, v) for k, v in result.items() if isinstance(v, list)),
                          ("", [])) if isinstance(result, dict) else ("", result)
        prefix = f"{key}[]" if key else "[]"
        records = [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
        for index, item in enumerate(items if len(records) == len(items) else []):
            ident = next((k for k in _ACCOUNT_IDS if isinstance(item.get(k), str)), None)
            name = next((k for k in ACCOUNT_NAMES if isinstance(item.get(k), str)
                         and item[k].strip()), None)
            status = item.get("status")
            if ident is None or name is None or (
                    status is not None and str(status).lower() not in IN_USE) or \
                    [r.get(name) for r in records].count(item[name]) > 1:
                continue
            at = f"{key}[{index}]" if key else f"[{index}]"
            return step, Found(field=f"{prefix}.{ident}", path=f"{at}.{ident}",
                               value=item[ident], type=kind,
                               selector=Selector(field=name, value=item[name]))
        _undo(walk, found, called, mark)
    return None


def _reads(graph: DependencyGraph, service: str) -> list[ToolNode]:
    """The argument-free reads of `service` (one scan of the graph, kept per graph)."""
    def scan() -> dict[str, list[ToolNode]]:
        by_service: dict[str, list[ToolNode]] = {}
        for other in graph.nodes.values():
            if other.effect == "read" and not other.required:
                by_service.setdefault(other.service, []).append(other)
        return by_service

    return _per_graph(_LISTERS, graph, scan).get(service, [])


def _fitting(named: list[Found], walk: Walk, filed: frozenset[str] = frozenset(),
             unfiled: frozenset[str] = frozenset()) -> list[Found]:
    """Of the records a lookup may take, those named by a name of their own (not "the
    project whose default account task type name is ...", where its title is another's
    too), and of those the ones named by most words of what the walk is about and where
    its step files what it makes (`filed`, its `Step.filed`: a renewal's follow-up task
    into the section "Contract renewals", not "Security audit"; a customer's into "Client
    follow-ups", not "Team follow-ups"), where any is; never one named where the step never
    files (`unfiled`: a colleague's follow-up in "Sales follow-ups"), where another is."""
    named = [f for f in named if not names_its_kind(f.selector.field)] or named
    named = [f for f in named if not _says(f, unfiled)] or named
    about = {w[:5] for w in split_words(f"{walk.pattern} {walk.gist} {' '.join(filed)}")
             if len(w) > 3 or w in filed}

    def score(value: Found) -> int:
        return len(about & {w[:5] for w in split_words(value.selector.value)
                            if len(w) > 3 or w in filed}) \
            if isinstance(value.selector.value, str) else 0
    best = max(map(score, named), default=0)
    return [f for f in named if score(f) == best] if best else named


def _says(value: Found, words: frozenset[str]) -> bool:
    """Whether a record found is named by one of `words` ("Sales follow-ups": sales)."""
    return isinstance(value.selector.value, str) and bool(
        set(split_words(value.selector.value)) & words)


# Words of the stamp a record's period ends by (Avaza's section `EndDate`, a project's
# `end_date`): a follow-up filed in a section that ended in October read as made up.
_ENDS = frozenset("end ends until finish".split())


def _current(named: list[Found], result: Any) -> list[Found]:
    """Of the records a lookup may take, those whose period has not ended by the world's
    `NOW` (a section or project still running takes new tasks) and that are not closed
    (`_SHUT`: a Trello list `"closed": true` is archived, and a follow-up card filed there
    is lost); [] where none is."""
    def ended(value: Found) -> bool:
        try:
            item = value_at(result, item_head(value.path))
        except KeyError:
            return False
        return any((set(split_words(key)) & _ENDS and (moment := moment_of(stamp)) is not None
                    and moment < NOW) or (stamp is True and set(split_words(key)) & _SHUT)
                   for key, stamp in (item.items() if isinstance(item, dict) else ()))
    return [f for f in named if not ended(f)]


# Flags of a record no longer in use: a closed list, an archived project.
_SHUT = frozenset("closed archived deleted disabled inactive".split())


def _elsewhere(value: Found, values: list[Found], scope: dict[str, str]) -> bool:
    """Whether the list item `value` sits in is not said to belong to the record it was
    listed within (`scope`: id type -> the id given), where the list says so of its items:
    a section of another project, listed by a world that does not filter, is no section of
    this one, nor is one that says of no project whose it is."""
    head = item_head(value.path)
    if not any(other.type in scope for other in values):
        return False  # (a list that says of no item whose it is)
    return not any(item_head(other.path) == head and other.type in scope
                   and canonical_json(other.value) == scope[other.type] for other in values)


_OTHER_PARENTS = 3  # other records a lookup within a record may try, where its own has none


def _scoped_listers(
    graph: DependencyGraph, service: str, kind: str, arguments: dict[str, Any],
    bindings: dict[str, Binding], found: list[list[Found]], walk: Walk, rng: random.Random,
    filed: frozenset[str] = frozenset(), unfiled: frozenset[str] = frozenset(),
) -> list[tuple[str, dict[str, Any], dict[str, Binding], dict[str, tuple[Found, int]]]]:
    """The reads of `service` that list records holding ids of `kind` within a record the
    call already found (an Avaza project's sections: `section_get(ProjectID)`), each with
    the arguments it takes from the call (every id it requires, of a type the call holds
    hidden), so a task goes into "the section named "Backlog" of the project named "Q3
    rollout"", not nowhere for want of an argument-free list of sections. Where that record
    was looked up by its name, up to `_OTHER_PARENTS` others of its list are tried after it
    (a project with no sections is no place for a task), each with the call's parameter
    it moves to: {parameter: (the other record's id, its call)}."""
    held = {b.type: p for p, b in bindings.items() if b.kind == "hidden"}
    out = []
    for name in _listers_within(graph, service, kind)[:3]:
        node = graph.nodes[name]
        if not all(node.params.get(r) in held for r in node.required):
            continue
        given = {r: held[node.params[r]] for r in node.required}
        out.append((name, {r: arguments[p] for r, p in given.items()},
                    {r: bindings[p] for r, p in given.items()}, {}))
        if len(given) != 1:
            continue
        (required, parent), = given.items()
        was = bindings[parent]
        if was.selector is None or was.step is None or was.step in walk.steps:
            continue  # (the records the workflow is about stay the ones it is about)
        others = _fitting([f for f in found[was.step] if f.type == was.type
                           and f.selector is not None and f.path != was.path], walk, filed,
                          unfiled)
        for other in rng.sample(others, min(_OTHER_PARENTS, len(others))):
            out.append((name, {required: other.value}, {required: _hidden(other, was.step)},
                        {parent: (other, was.step)}))
    return out


def _listers_within(graph: DependencyGraph, service: str, kind: str) -> list[str]:
    """The reads of `service` that list its records of `kind` (no record that holds some
    in a list of its own: a project with its sections) and require only ids of another
    kind to do it, the plainest first."""
    within = _per_graph(_WITHIN, graph, dict)
    key = (service, kind)
    if key not in within:
        within[key] = sorted(
            (other.name for other in graph.nodes.values()
             if other.service == service and other.effect == "read" and other.required
             and other.resource and entity_id_type(service, other.resource) == kind
             and all(is_entity_id(other.params.get(r, "")) and other.params[r] != kind
                     for r in other.required)
             and any(k == kind and "[]" in path for path, k in other.outputs.items())),
            key=lambda name: (plainness(name), name))
    return within[key]


def _listers(graph: DependencyGraph, service: str, kind: str) -> list[str]:
    """The argument-free reads of `service` that list records holding ids of `kind`, the
    plainest first (Zoom's `users` before `list_phone_users`: a meeting's host is a user,
    and was looked up among the phone system's; one scan of the graph per service, not per
    lookup)."""
    listed = _per_graph(_LISTED, graph, dict)
    key = (service, kind)
    if key not in listed:
        listed[key] = sorted(  # lists of the records those ids name: "the spot named"
            (other.name for other in _reads(graph, service)
             if other.resource and entity_id_type(service, other.resource) == kind
             and any(k == kind and "[]" in path for path, k in other.outputs.items())),
            key=lambda name: (plainness(name), name))
    return listed[key]


def _top(world: WalkWorld, node: ToolNode) -> dict[str, Any]:
    """A tool's top-level parameters (by name: their schemas)."""
    return world.service(node.service).tools[node.name].spec.parameters.get("properties", {})


def _schema(world: WalkWorld, node: ToolNode, param: str) -> dict[str, Any]:
    top = _top(world, node)
    return top[param] if param in top else schema_at(
        world.service(node.service).tools[node.name].spec.parameters, param)


def _put_back(service: Service, kept: State) -> None:
    """A service's records as they were when `kept` was copied (a write undone)."""
    service.state.collections, service.state.next_ids = kept.collections, kept.next_ids


def _undo(walk: Walk, found: list[list[Found]], called: set[bytes], mark: int) -> None:
    """Drop the lookups made after call `mark` (reads: the state needs no undoing)."""
    for call in walk.calls[mark:]:
        called.discard(canonical_json([call.tool, call.arguments]))
    del walk.calls[mark:], found[mark:]


def _weight(kind: str) -> float:
    return ID_WEIGHT if is_entity_id(kind) else TYPE_WEIGHTS.get(kind, 1.0)


def _crossed(walk: Walk) -> bool:
    return any(walk.calls[b.step].service != c.service for c in walk.calls
               for b in c.bindings.values() if b.kind == "hidden")


def _said(value: Any, stated: list[str]) -> bool:
    """Whether a value is already in the task's visible text (then it hides nothing)."""
    return any(render_value(value) == text or mentions(text, value) for text in stated)


def _attempt(
    world: WalkWorld, node: ToolNode, arguments: dict[str, Any], bindings: dict[str, Binding],
    walk: Walk, found: list[list[Found]], called: set[bytes], strict: bool = False,
) -> bool:
    sent = nest(arguments, _top(world, node)) if any(map(is_path, arguments)) \
        else arguments  # (a nested parameter's bound leaves, in their object)
    key = canonical_json([node.name, sent])
    if key in called:
        return False
    service = world.service(node.service)
    before = service.state.digest() if node.writes else None
    kept = service.state.copy() if node.writes and strict else None
    result = world.call(node.name, sent)
    if not result["success"]:
        return False
    values = find_values(result["data"], node.outputs)
    if node.writes:
        if service.state.digest() == before:
            return False  # a write that changed nothing cannot be checked
        if kept is not None and (_says_failed(result["data"])  # `{"status": 404}`: no one
                                 # would count that as done; a text "sent" to another
                                 # number than the one it was given
                                 or _contradicts(arguments, bindings, result["data"])):
            _put_back(service, kept)  # (what it changed is undone: a later check wants
            # none of it)
            return False
    elif not values:
        return False
    elif strict and _says_failed(result["data"]):
        return False  # a list that says "success": false beside its records
    elif strict and not _honoured(arguments, bindings, result["data"]):
        return False  # a search for rosa's email that answers with lena's record
    called.add(key)
    for binding in bindings.values():  # what the call took from a list, it took of one item
        if binding.kind == "hidden" and binding.step is not None and binding.path:
            walk.subject.setdefault(binding.step, item_head(binding.path))
    walk.calls.append(GoldCall(tool=node.name, service=node.service, effect=node.effect,
                               arguments=sent, bindings=bindings, result=result["data"]))
    found.append(values)
    return True


def _bind(
    graph: DependencyGraph, world: WalkWorld, node: ToolNode,
    link: tuple[str, int, Found] | None, walk: Walk, found: list[list[Found]],
    rng: random.Random, config: WalkConfig, patterned: bool = False,
) -> tuple[dict[str, Any], dict[str, Binding]]:
    service = world.service(node.service)
    spec = service.tools[node.name].spec.parameters
    top = spec.get("properties", {})
    inner = {p: schema_at(spec, p) for p in node.params if is_path(p) and p not in top}
    properties = top | inner
    holders = {head(p) for p in inner}  # bound after their leaves
    arguments: dict[str, Any] = {}
    bindings: dict[str, Binding] = {}
    used = {link[1]} if link else set()
    stated = [render_value(v) for v in visible_values(walk.calls, [])]
    environment = _environment_params(service, node)
    draft: dict[str, Any] | None = None
    if link:
        param, step, source = link
        arguments[param] = _coerce(source.value, properties.get(param, {}))
        bindings[param] = _hidden(source, step)
    meeting = patterned and _books_meeting(walk, node)
    if meeting and walk.meeting is None:  # what we meet them for, by where we know them from
        walk.meeting = _purpose(walk, _kind(world, walk.calls[0].service), rng)
    for param in sorted(properties, key=lambda p: (p in holders, p)):
        if param in arguments:
            continue
        if param in holders and any(p in inner and head(p) == param for p in arguments):
            if param in node.required:  # what else the object requires, as drawn
                if draft is None:
                    draft = _draft(world, service, node, random.Random(rng.random()))
                arguments[param] = required_part(properties[param], draft.get(param))
            continue
        kind = node.params.get(param, "")
        required = param in node.required
        if param in environment:
            if required:  # filled by the environment: an argument without a binding
                arguments[param] = _environment_value(world, service, node, param,
                                                      properties[param], rng)
            continue
        if patterned and node.effect != "read" and tool_entity(node) == "message" \
                and (is_sender(param, kind) or is_sender_name(param, kind)):  # a text goes
            # out from our own number (or under our name), bound
            arguments[param] = None  # once its recipient is (`_bind_sender`)
            bindings[param] = Binding(kind="visible", type=kind)
            continue
        joins = [(i, f) for i, values in enumerate(found) for f in values
                 if (i not in used or (patterned and link and i == link[1]
                                       and _sameitem_head(f, link[2])))
                 and (not patterned or (_on_subject(walk, i, f) and not _taken(f, i, bindings)
                                        and _own_id(graph, walk, i, f)
                                        and "fax" not in split_words(f.field or "")
                                        and not _other_handle(f, param)
                                        and _sole_entry(walk.calls[i], f)
                                        and _textable(walk, i, f, node)))
                 and f.type == kind and is_link_type(kind)
                 and not _said(f.value, stated) and _same_units(f, properties.get(param, {}))
                 and graph.score(walk.calls[i].tool, f.field, node.name, param, kind)
                 >= config.edge_threshold]
        if patterned and not required and (not _identity(node, kind) or (
                param in inner and _name_for_address(node, param))):  # (a guest's name
            # beside their address inside an event's `attendees`: no check wants it)
            joins = []  # (a new contact takes who they are, not every detail: see _identity)
        # a workflow carries what it knows: the customer's email *and* name go into a refund
        # (never a fax number: nobody asks one carried on)
        odds = 1.0 if patterned else (0.7 if required else config.join)
        if joins and rng.random() < odds:
            step, source = rng.choices(joins, weights=[(i + 1) ** 2 for i, _ in joins])[0]
            used.add(step)
            arguments[param] = _coerce(source.value, properties[param])
            bindings[param] = _hidden(source, step)
        elif patterned and _copies_title(node, walk, param, kind) and (
                title := _subject_title(walk, bindings)):  # a copied event keeps its title
            arguments[param] = _coerce(title, properties[param])
            bindings[param] = Binding(kind="visible", type=kind)
        elif meeting and walk.meeting and (said := _meeting_fact(walk, param, kind, properties)):
            arguments[param] = _coerce(said, properties[param])  # its title, the agent's
            bindings[param] = Binding(kind="aside", type=PURPOSE)  # words, checked by its topic
        elif patterned and walk.channels and node.effect != "read" \
                and "channel" in split_words(param):  # the team channel it is for, by name
            arguments[param] = _channel(service, kind, properties[param], walk.channels, rng)
            bindings[param] = Binding(kind="visible", type=kind or "string")
        elif required or (patterned and _worth_stating(node, param, kind)):
            if draft is None:  # one draw of the whole call: its address, person agree
                draft = _draft(world, service, node, random.Random(rng.random()))
            draw = _own_account(world, service, kind) if patterned and is_tenant_id(kind) \
                else rng
            arguments[param] = _literal(world, service, node, param, properties[param], draw,
                                        draft)
            if patterned and node.effect == "create" and _status(param):
                arguments[param] = _fresh_status(properties[param], arguments[param])
            # A workflow's message says what the user means, in the agent's words: nobody
            # dictates three random sentences as a refund notice.
            free = patterned and kind == "text" and node.effect != "read"
            if patterned and node.effect != "read" and tool_entity(node) == "message" \
                    and _subject_line(param, kind):  # the email's subject, the agent's too
                walk.gist = _settled(world, walk)
                arguments[param] = reference_subject(
                    walk.gist, properties[param], arguments[param], line=walk.headline,
                    title=_subject_title(walk, bindings),
                    meeting=_event_facts(graph, walk, bindings)[0] or (
                        walk.meeting.title if walk.meeting else ""))
                bindings[param] = Binding(kind="free", type=kind or "string")
                continue
            if free:  # the reference writes what the workflow means, not a stock sentence
                walk.gist = _settled(world, walk)
                arguments[param] = reference_note(
                    walk.gist, properties[param], arguments[param], rng,
                    name=_first_name(walk, world, link), title=_subject_title(walk, bindings),
                    event=_event_facts(graph, walk, bindings),
                    status=_order_status(walk, bindings),
                    amount=_receipt_amount(walk, bindings),
                    purpose=walk.meeting.what if walk.meeting else "",
                    local=(walk.place.timezone, walk.place.city) if walk.place else None,
                    link=_our_page(world, walk.gist))
            bindings[param] = Binding(kind="free" if free else "visible", type=kind or "string")
    if meeting:  # where the guest is: the booking's time zone, and its hours theirs
        walk.place = _guest_place(world, [v for p, v in arguments.items() if p in bindings
                                          and bindings[p].kind == "hidden"])
        zone = next((p for p in sorted(properties) if p not in arguments and _zone(p)), None)
        if walk.place is not None and zone is not None:
            arguments[zone] = _coerce(walk.place.timezone, properties[zone])
            bindings[zone] = Binding(kind="aside", type=node.params.get(zone, "") or "string")
    if patterned and node.effect != "read" and tool_entity(node) == "event":
        _book_in_hours(node, arguments, bindings, rng,  # a meeting at 10:30 next week,
                       walk.place.timezone if meeting and walk.place else None)  # theirs
    if patterned and node.effect != "read" and tool_entity(node) == "message":
        _bind_sender(service, arguments, bindings, properties, getattr(world, "seed", 0))
    if patterned and any(b.kind == "hidden" and b.type in ("date", "datetime")
                         for b in bindings.values()):
        for param in [p for p, b in bindings.items() if b.kind == "visible"
                      and b.type in ("date", "datetime") and p not in node.required]:
            del arguments[param], bindings[param]  # a copied event keeps its own times
    return arguments, bindings


# What a record just made is: a new order is pending, not "refunded" and "shipped".
_FRESH = ("pending", "open", "new", "draft", "active", "processing", "unpaid", "scheduled",
          "confirmed", "todo", "not_started", "awaiting_payment")


def _status(param: str) -> bool:
    return split_words(param)[-1:] in (["status"], ["state"])


def _fresh_status(schema: dict[str, Any], drawn: Any) -> Any:
    """The status a new record starts in: the first of `_FRESH` its schema allows (a free
    string: `pending`), else what was drawn."""
    if not isinstance(drawn, str):
        return drawn
    options = schema.get("enum") if isinstance(schema, dict) else None
    if not options:
        return "pending"
    lowered = {str(o).lower(): o for o in options if isinstance(o, str)}
    return next((lowered[f] for f in _FRESH if f in lowered), drawn)


def _event_facts(graph: DependencyGraph, walk: Walk,
                 bindings: dict[str, Binding] | None = None) -> tuple[str, str]:
    """The name and start of the event an earlier step of the workflow booked, as the
    request states them ("Quarterly review", 2026-12-05T10:00:00Z): what an invitation to
    it names; of an event the workflow is about, its start (the call being bound takes
    `bindings`). ("", "") where there is no event."""
    for call in _with_pending(walk, bindings or {}):
        node = graph.nodes.get(call.tool)
        if node is None or call.effect == "read" or tool_entity(node) != "event":
            continue
        named = start = ""
        for param, binding in call.bindings.items():
            value = call_arguments(call).get(param)
            if binding.kind != "visible" or not isinstance(value, str):
                continue
            role = role_of(param, binding.type, node.resource)
            if binding.type == "title" and not named and len(value) >= 3:
                named = value
            elif binding.type in ("date", "datetime") and role is not None and (
                    role.meaning == "start") and not start:
                start = value
        if named or start:
            return named, start
    if walk.about == "event" and walk.calls:  # a reminder of the event read says when
        start = start_of(followed(_with_pending(walk, bindings or {})))
        return "", start
    return "", ""


def _order_status(walk: Walk, bindings: dict[str, Binding]) -> str:
    """The status of the order a workflow is about (`shipped`), as an update on it says;
    "" for any other workflow (an invoice's note says the invoice is ready, no more)."""
    if walk.about != "order" or "order" not in walk.gist.split() or not walk.calls:
        return ""
    return status_of(followed(_with_pending(walk, bindings)))


def _receipt_amount(walk: Walk, bindings: dict[str, Binding]) -> str:
    """What a receipt or payment confirmation says was paid ("306.12 USD"), from the
    invoice or payment the workflow is about; "" for any other message."""
    if walk.about not in ("invoice", "payment") or not ({"receipt", "received"}
                                                        & set(walk.gist.split())):
        return ""
    return paid_amount(followed(_with_pending(walk, bindings)))[1]


def _with_pending(walk: Walk, bindings: dict[str, Binding]) -> list[GoldCall]:
    """The walk's calls and, last, the one being bound (its `bindings`, no result yet):
    what the chain takes from its first record, this call included. Where the steps are
    made again for another record (`repeat_steps`), the calls made for the others are left
    out: a confirmation of the second appointment names its own date, not the first's."""
    head = walk.subject.get(0)
    own = [call for call in walk.calls[1:] if not walk.repeated or all(
        item_head(b.path or "") == head for b in call.bindings.values()
        if b.kind == "hidden" and b.step == 0 and b.path)]
    return [*walk.calls[:1], *own, GoldCall(tool="", service="", effect="", arguments={},
                                            bindings=bindings, result=None)]


# Words of a field that holds a party's detail, no name of the record: an order found by
# its shipping address's company is no order called "Copperleaf Foods" (its review request
# had been asked to mention the customer's own company)
_PARTY_FIELDS = frozenset("company organization organisation business address street city "
                          "state country zip postal postcode email phone".split())


def _subject_title(walk: Walk, bindings: dict[str, Binding]) -> str:
    """The words the request names a workflow's subject by, when it is no person (the
    ticket "Login delay", the order "Board Game"): what a message about it names. From the
    selector of the first read's item, else its stated text filter; "" for a person, an
    email or a code."""
    if walk.about in _PEOPLE or not walk.calls:
        return ""
    first = walk.calls[0]
    named = [b.selector.value for call in _with_pending(walk, bindings)[1:]
             for b in call.bindings.values() if b.kind == "hidden" and b.step == 0
             and b.selector is not None
             and item_head(b.path or "") == walk.subject.get(0, item_head(b.path or ""))
             and not set(split_words(b.selector.field)) & _PARTY_FIELDS]  # (of the record
    # its steps are for, where they are made for several: `repeat_steps`)
    named += [call_arguments(first)[p] for p, b in first.bindings.items()
              if b.kind == "visible" and b.type in ("title", "string")]
    return next((v for v in named if isinstance(v, str) and len(v.split()) >= 1
                 and sum(c.isalpha() for c in v) >= 3 and "@" not in v
                 and not any(c.isdigit() for c in v) and not _person_named(v)), "")


def _person_named(text: str) -> bool:
    """Whether `text` is a person's name ("Julia Lopez"): an order found by its customer's
    name, or an appointment named after its guest, is about them, and a message to them
    that "mentions" their own name says nothing of the subject."""
    words = text.split()
    return len(words) == 2 and words[0] in FIRST_NAMES and words[1] in LAST_NAMES


# Our page a set-up note points to, by its gist (no "you can now book online" with no way
# to book)
_PAGES = {"letting them know they can now book with us online": "book",
          "letting them know they can now pay us online": "pay"}


def _our_page(world: WalkWorld, gist: str) -> str:
    """`https://www.contoso.com/book`: where a note telling a customer they can now book
    (or pay) online sends them; "" for any other gist."""
    path = _PAGES.get(gist)
    return our_page(getattr(world, "seed", 0), path) if path else ""


def _first_name(walk: Walk, world: WalkWorld | None = None,
                link: tuple[str, int, Found] | None = None) -> str:
    """The first name of the person a workflow is about, from the record its first read
    found, or of the one person of the world's pool whose email an invoice, order or
    ticket holds ("" where none is): whom a message greets (no "Hi there" to a
    customer the record names). Before the walk's first write is made, its record is the
    one the call's link was found in (`link`): the subject is set once a call took from
    it, so the first message greeted nobody, and a for-each's others by name."""
    if not walk.calls:
        return ""
    head = walk.subject.get(0)
    if head is None and link is not None and link[1] == 0 and link[2].path:
        head = item_head(link[2].path)
    try:
        item = value_at(walk.calls[0].result, head or "")
    except KeyError:
        return ""
    if walk.about not in _PEOPLE:
        people = {person.first_name for person in _pool_people(world, [item])}
        return people.pop() if len(people) == 1 else ""
    if not isinstance(item, dict):
        return ""
    for key, value in item.items():
        words = value.split() if isinstance(value, str) else []
        if words and words[0] in FIRST_NAMES and (len(words) == 1 or split_words(key)[-1:] == [
                "name"]) and split_words(key)[:1] != ["last"]:
            return words[0]  # `firstName` "Ana", or `name` / `contactName` "Ana Ruiz"
    return ""


def _sameitem_head(value: Found, source: Found) -> bool:
    """Whether a value is of the same list item (or the same record) as the link's value."""
    if value.path == source.path:
        return False
    return item_head(value.path) == item_head(source.path)


_NAMING = frozenset("name title subject label".split())
_SAYING = frozenset("body text message content note comment".split())


def _leaf(path: str) -> str:
    """The last field of a path: `receiverContactEmail` of `[0].receiverContactEmail`."""
    return path.rsplit(".", 1)[-1].replace("[]", "")


def _parent(path: str) -> str:
    """The object a value sits in: `[1].billingPerson` of `[1].billingPerson.name`, `[1]`
    of `[1].emails[0].email` (a record's own first email)."""
    return own_record(path.rsplit(".", 1)[0]) if "." in path else ""


_MONEY_WORDS = frozenset("amount currency code value total".split())


def _one_money(hidden: list[Binding]) -> bool:
    """Whether the amounts and currencies a call carries from one record are one sum's:
    `payment_amount` goes with `payment_currency`, not with `source_currency`."""
    kinds: dict[tuple[int | None, str], set[str]] = {}
    for b in hidden:
        if b.type in ("money", "currency") and b.field:
            words = frozenset(split_words(b.field.rsplit(".", 1)[-1])) - _MONEY_WORDS
            kinds.setdefault((b.step, b.type), set()).add(words)
    for (step, kind), amounts in kinds.items():
        if kind != "money":
            continue
        for currency in kinds.get((step, "currency"), set()):
            if any(a and currency and not a & currency for a in amounts):
                return False
    return True


def _other_handle(value: Found, param: str) -> bool:
    """Whether a username would become another platform's handle: a shop's login is no
    Skype name (a new contact's `skypeUsername` was filled with their API2Cart login, and
    the request asked to add them "with their skype user name"), nor a Twitter handle a
    login elsewhere."""
    return value.type == "username" and set(split_words(value.field or "")) & HANDLE_APPS \
        != set(split_words(param)) & HANDLE_APPS


def _worth_stating(node: ToolNode, param: str, kind: str) -> bool:
    """Whether a workflow's write sets an optional parameter anyway: a message's text
    (`body`; the agent writes it, even where the API would send it empty), an event's
    start and end (nobody books a meeting for no time)."""
    if node.effect == "read":
        return False
    entity, words = tool_entity(node), split_words(param)
    if entity == "message" and kind == "text":  # (one body: Postmark's `HtmlBody` beside
        return bool(words) and words[-1] in _SAYING and "html" not in words  # `TextBody`)
    if entity == "message" and _subject_line(param, kind):
        return True  # an email has a subject (one with none reads as spam)
    if entity == "event" and kind in ("date", "datetime"):  # and how long it lasts (no
        role = role_of(param, kind, node.resource)  # bare booking of a start alone)
        return role is not None and role.meaning in ("start", "end")
    return False


def _subject_line(param: str, kind: str) -> bool:
    """Whether a message's parameter is its subject line (Postmark's `Subject`)."""
    return kind in ("title", "string") and split_words(param)[-1:] == ["subject"]


def _sibling_api(step: Step, service: str, here: str) -> bool:
    """Whether a step would look a record up, or make one, in another API of the vendor it
    came from (OnSched Setup's appointment, its customer in OnSched Consumer): one vendor's
    APIs share their records, so there is nothing to find there, and a customer of OnSched
    Setup booked in OnSched Consumer reads as one product split in two. A
    message may go out through the sibling."""
    return step.entity != "message" and service != here and vendor(service) == vendor(here)


def _copies_title(node: ToolNode, walk: Walk, param: str, kind: str) -> bool:
    """Whether a write makes a copy of the record a workflow is about (an event, an issue,
    a task) and `param` is its title: an appointment copied from "Annual budget review" is
    no untitled slot, nor is an issue tracked in a second tracker."""
    words = split_words(param)  # `name`, `eventName`, `title`, `summary`; no `timezoneName`
    return (node.effect != "read" and walk.about in _TITLED and walk.about == tool_entity(node)
            and kind == "title" and (_naming(param) or words[-1:] == ["summary"])
            and set(words[:-1]) <= _TITLED_WORDS)


# What a copy keeps the title of, and the words its title parameter may say before it.
_TITLED = frozenset({"event", "ticket", "task"})
_TITLED_WORDS = frozenset("event meeting appointment booking issue ticket task".split())


def _naming(param: str) -> bool:
    """Whether a parameter names its record (`name`, `display_name`, `title`)."""
    words = split_words(param)
    return bool(words) and words[-1] in _NAMING


_PEOPLE = frozenset({"person", "staff"})
_PEOPLE_OR_ORGS = _PEOPLE | {"org"}


def _nameable(call: GoldCall, value: Found, about: str = "") -> bool:
    """Whether the record a workflow is about can be named: a list item by a field of its
    own ("the payment with the email ..."), a record by the values it was read with. "The
    statement in Yodlee" is no record anyone can point at."""
    if value.selector is not None:  # (not by a schema's stand-in: "financial-account-874")
        words = split_words(value.selector.field)[-1:]
        if about in _PEOPLE_OR_ORGS and words in (["title"], ["subject"]):
            return False  # "the person titled "Updated budget review"" names nobody
        field = value.selector.field.rsplit(".", 1)[-1]
        if not _theirs(field, semantic_type(field, {}, service="", resource=None), about):
            return False  # "the user whose bcc email is ..." is somebody else's address
        return not (isinstance(value.selector.value, str)
                    and (_PLACEHOLDER.match(value.selector.value)
                         or stand_in_name(value.selector.value)))  # "Annual Contact"
    return any(b.kind == "visible" for b in call.bindings.values())


def _theirs(field: str, kind: str, about: str) -> bool:
    """Whether a person value (`field` of type `kind`) of a person the workflow is about is
    their own: a user's `bcc_email` or `sender_name` is somebody else's, no fact of them."""
    return about not in _PEOPLE or kind not in PERSON_TYPES or field_role(
        field.rsplit(".", 1)[-1].removesuffix("[]")) == ""


def _addressable(call: GoldCall, value: Found, step: Step) -> bool:
    """Whether a message may go to this value: an address read from a record, never one a
    write's reply made up (the new customer's phone in a mock create answer is nobody's)."""
    return step.entity != "message" or call.effect == "read" or is_entity_id(value.type)


def _matches_filters(call: GoldCall, value: Found) -> bool:
    """Whether the list item a value sits in holds the values its read was filtered by: a
    search for Nadia's email that also lists Farid is about Nadia, not Farid."""
    head = item_head(value.path)
    filters = [v for p, v in call_arguments(call).items() if p in call.bindings
               and isinstance(v, str) and len(v) >= 3]
    if not head or not filters:
        return True
    try:
        item = json_text(value_at(call.result, head))
    except KeyError:
        return False
    return all(json_text(v)[1:-1] in item for v in filters)


def _names_record(value: Found) -> bool:
    """Whether a value is a record's own id (`[].id`, `id`), not one it refers to."""
    return is_entity_id(value.type) and value.field.rsplit(".", 1)[-1] == "id"


def _own_id(graph: DependencyGraph, walk: Walk, step: int, value: Found) -> bool:
    """Whether a value is no id, or the id of the record call `step` returned: a workflow
    acts on its record, it does not pass on the ids of a record's tax codes and owners."""
    if not is_entity_id(value.type):
        return True
    node = graph.nodes[walk.calls[step].tool]
    return bool(node.resource) and value.type == entity_id_type(node.service, node.resource)


def _taken(value: Found, step: int, bindings: dict[str, Binding]) -> bool:
    """Whether a call already takes this very value (one phone number is no fax as well)."""
    return any(b.kind == "hidden" and b.step == step and b.path == value.path
               for b in bindings.values())


# a number no text reaches (no text to a businessPhone beside a mobile)
_LANDLINES = frozenset("business work office home landline fax company main".split())
_NO_CONTACT = frozenset("unsubscribed opted optout dnc".split())
# an address kept for when the usual one fails: a notice to a colleague's `recoveryEmail`
# made the directory's lookup pointless, and one to their `primaryEmail` failed the check
_SPARE_ADDRESSES = frozenset("recovery backup alternate alternative fallback".split())
_TURNED_DOWN = frozenset({"declined", "rejected", "unsubscribed", "bounced"})


def _textable(walk: Walk, step: int, value: Found, node: ToolNode) -> bool:
    """Whether a message may go to this address of a record: a phone that is no landline,
    of a person who has not asked not to be messaged (`contact_restrictions: ["message"]`,
    `do_not_contact`) and did not decline the meeting it is about (no text to a business
    line, to people who asked for none, nor a thank-you for a meeting the attendee
    declined)."""
    if node.effect == "read" or tool_entity(node) != "message" \
            or value.type not in ("phone", "email"):
        return True
    if value.type == "phone" and set(split_words(value.field or "")) & _LANDLINES:
        return False
    if value.type == "email" and set(split_words(value.field or "")) & _SPARE_ADDRESSES:
        return False  # (a user's `recoveryEmail` is for their password, not our notes)
    try:
        item = value_at(walk.calls[step].result, item_head(value.path))
    except KeyError:
        return True
    if not isinstance(item, dict):
        return True
    if value.type == "phone" and "mobile" not in split_words(value.field or "") and any(
            "mobile" in split_words(key) and isinstance(held, str) and held.startswith("+")
            for key, held in item.items()):
        return False  # a text goes to their mobile where the record has one (not
        # Big Red Cloud's "mobile" beside the "phone" the gold texted)
    for key, held in item.items():
        words = set(split_words(key))
        if words & {"restriction", "restrictions"} and held:
            return False
        if held is True and ({"do", "not"} <= words or words & _NO_CONTACT):
            return False
        if words & {"status", "response"} and str(held).lower() in _TURNED_DOWN:
            return False
    return True


def _looked_up_by(call: GoldCall, value: Found) -> bool:
    """Whether a found value is what its read was looked up by: a customer found by their
    email gives back that email, so a message to it needed no lookup (review of this stop:
    "You'll find their email address in OnSched Consumer (same email address)")."""
    given = call_arguments(call)
    return call.effect == "read" and any(
        b.kind == "hidden" and canonical_json(given.get(p)) == canonical_json(value.value)
        for p, b in call.bindings.items())


def _on_subject(walk: Walk, step: int, value: Found) -> bool:
    """Whether a value of call `step` is of the item the walk already took from it."""
    chosen = walk.subject.get(step)
    return chosen is None or item_head(value.path) == chosen


def _substantial(graph: DependencyGraph, walk: Walk, step: Step, node: ToolNode,
                 arguments: dict[str, Any], bindings: dict[str, Binding]) -> bool:
    """Whether a patterned write says enough to be the act its step is: two facts at least
    (who and what, a recipient and a message), every attribute the step needs carried."""
    if node.effect == "read":
        return True
    acts_on = any(b.kind == "hidden" and is_entity_id(b.type) for b in bindings.values())
    facts = {p: b for p, b in bindings.items() if not is_tenant_id(b.type)}  # (no settings)
    if len(facts) < 2 and not acts_on:  # (a refund of the payment found needs only it)
        return False
    halves = {b.type for b in facts.values()} & {"first_name", "last_name"}
    if step.entity in _PEOPLE and "create" in step.effects and len(halves) == 1 and (
            {"first_name", "last_name"} - halves) & set(node.params.values()):
        return False  # half a name where the tool takes both (no customer
        # added as {"firstname": "Tomas"}, another as {"lastname": "Horvat"})
    if step.entity in _PEOPLE and "create" in step.effects and not (
            any(b.kind == "hidden" and b.type in ("email", "phone") for b in facts.values())
            and any(b.type in NAME_TYPES for b in facts.values())):
        return False  # a new contact has a name and an address to reach them by
    if step.entity == "org" and "create" in step.effects and not (
            any(b.type == "company" for b in facts.values()) and any(
                b.kind == "hidden" and b.type != "company" for b in facts.values())):
        return False  # a supplier made of one phone number is nobody's supplier, and an
        # account of only the name the request says needs no read (it adds nothing)
    if _books_meeting(walk, node) and not any(
            b.type in ("date", "datetime") and (role := role_of(p, b.type, node.resource))
            and role.meaning == "start" for p, b in bindings.items()):
        return False  # a meeting booked for no time is none (a renewal call "scheduled"
        # in Vestorly, a marketing app whose events are page views)
    own = _subject_title(walk, bindings)
    if step.entity == walk.about and any(
            b.kind == "visible" and _naming(param) and not (own and arguments.get(param) == own)
            for param, b in bindings.items()):
        return False  # a copy of "Plant Pot" named "Yoga Mat" is another product
    hidden = [b for b in bindings.values() if b.kind == "hidden" and b.step is not None]
    people = {(b.step, _parent(b.path)) for b in hidden if b.type in PERSON_TYPES and b.path}
    if len({step for step, _ in people}) < len(people):
        return False  # an order's email beside its billing person's name: two people
    roles = {(b.step, field_role(_leaf(b.field or b.path))) for b in hidden
             if b.type in PERSON_TYPES and b.path}
    if len({(step, role) for step, role in roles if role}) > len({s for s, r in roles if r}):
        return False  # an invoice's `receiverContactEmail` beside its `senderContactName`
    if not _one_money(hidden):
        return False  # a payment amount in the source currency
    if sum(b.type == "money" for b in hidden) > 1:
        return False  # a total and a "total in USD" that a mock world made disagree
    if any(b.type == "money" and b.step == 0 and (_nested(b) or set(split_words(
            b.field or "")) & _PART_PRICES) for b in hidden):
        return False  # an expense's category unit price is no amount of the expense
    if any(b.type == "username" and (set(split_words(b.field or "")) & HANDLE_APPS) - set(
            split_words(p)) for p, b in bindings.items() if b.kind == "hidden"):
        return False  # a twitter handle is no login elsewhere
    if any(b.type == "phone" and ("fax" in split_words(b.field or "")) != (
            "fax" in split_words(p)) for p, b in bindings.items() if b.kind == "hidden"):
        return False  # a fax number is no phone to call, nor a phone a fax line
    if step.entity == "message" and any(
            b.kind == "hidden" and b.type == "url" and (role := role_of(
                b.field or "", "url", None)) is not None and role.meaning == "image"
            for b in bindings.values()):
        return False  # a Drive file's icon link as a Slack post's icon: an image's URL
        # shares no document, and reads as none
    if step.entity == "message" and _another_person(arguments, bindings):
        return False  # a meeting named by one guest's email, its message to another guest
    if step.entity == "message" and "create" in step.effects and not any(
            b.kind == "free" or (b.kind == "hidden" and b.type == "text")
            for b in bindings.values()):
        return False  # a conversation opened with nothing said in it tells nobody anything
        # (an issue's description posted to a channel says what the issue says)
    return carries(graph, step, [(walk.calls[b.step].tool, b.field, b.type)
                                 for b in hidden if b.field])


def _another_person(arguments: dict[str, Any], bindings: dict[str, Binding]) -> bool:
    """Whether a message goes to an address of the first record other than the one the
    request names that record by: "the meeting whose recipient email is vera@..." and an
    email to its attendee samir@... leaves the reader asking who "the attendee" is."""
    named = {b.selector.value for b in bindings.values() if b.kind == "hidden"
             and b.step == 0 and b.selector is not None and isinstance(b.selector.value, str)
             and "@" in b.selector.value}
    return bool(named) and any(
        b.kind == "hidden" and b.step == 0 and b.type == "email"
        and not set(_entries(arguments.get(p))) <= named for p, b in bindings.items())


def _entries(value: Any) -> list[Any]:
    """The addresses an argument holds: itself, or a list's (`to: ["ann@x.org"]`)."""
    if isinstance(value, dict):
        return []
    return [v for v in value if not isinstance(v, list | dict)] \
        if isinstance(value, list) else [value]


_PART_PRICES = frozenset("unit category item line per".split())  # a part's price, no total
_SALES = frozenset("invoice invoices receipt receipts sale sales order orders".split())


def _other_side(graph: DependencyGraph, walk: Walk, step: Step, node: ToolNode) -> bool:
    """Whether a booking is on the wrong side of the books: a customer's invoice is paid as a
    payment received, never as a `bill_payment` (what the business pays its suppliers)."""
    if step.entity != "payment" or "create" not in step.effects:
        return False
    subject = set(split_words(graph.nodes[walk.calls[0].tool].resource or ""))
    words = set(split_words(node.name.rsplit("__", 1)[-1])) | set(
        split_words(node.resource or ""))
    billing = bool(words & {"bill", "bills"})
    if subject & {"bill", "bills"}:  # a bill the business owes is paid as a bill payment
        return not billing
    return bool(subject & _SALES) and billing


def _nested(binding: Binding) -> bool:
    """Whether a value sits in an object inside its record (`data[0].category.price`),
    not on the record itself (`data[0].amount`)."""
    path = binding.path or ""
    rest = path.removeprefix(item_head(path)).lstrip(".")
    return "." in rest or "[" in rest


def _draft(world: WalkWorld, service: Service, node: ToolNode, rng: random.Random
           ) -> dict[str, Any]:
    """Values for every parameter of a call drawn together, so the fields of one address
    or one person come from one place and one person (`bill_city`, `bill_country`,
    `bill_postcode`), not each from its own draw."""
    value = value_from_schema(service.tools[node.name].spec.parameters, rng,
                              service=service.name, resource=_noun(node),
                              pool=getattr(world, "pool", None))
    return value if isinstance(value, dict) else {}


def _noun(node: ToolNode) -> str | None:
    """What a call's drawn values are of: its collection, else "messages" for a message
    tool that has none (a post's `channel` is a team chat's channel, "engineering", never
    a medium such as "sms")."""
    return node.resource or ("messages" if tool_entity(node) == "message" else None)


# What a new person, company or booking with someone takes of them only when asked: said,
# a phone or an address dictates a field list ("with their phone number" in most requests
# reads as a form), unsaid, its check fails an agent that left it out
_DETAILS = frozenset({"phone", "address", "city", "postal_code", "country", "region"})
_WHO_ENTITIES = frozenset({"person", "staff", "org", "event"})
_WHO_KINDS = NAME_TYPES | {"email", "username"}


def _kind(world: WalkWorld, service: str) -> str:
    spec = world.service(service).spec
    return app_kind(app_name(service, spec.title), spec.domain)


def _texts_abroad(world: WalkWorld, node: ToolNode, value: Found) -> bool:
    """Whether a texting app of one country would text a number of another: Telstra's
    Messaging API ("Australia's leading mobile network") texted +44 and +1 numbers, and
    The SMS Works (thesmsworks.co.uk) +81 and +82 ones, which a blind review read as made
    up in 7 of 40 tasks."""
    if value.type != "phone" or node.effect == "read" or tool_entity(node) != "message":
        return False
    home = home_country(world.service(node.service).spec)
    found = phone_country(str(value.value))
    return home is not None and found is not None and found != home


def home_country(spec: Any) -> str | None:
    """The one country a service works in, where it says: its web address's country
    (`thesmsworks.co.uk`), else the one country its description names ("leveraging
    Australia's leading mobile network"); None for a service of no country."""
    host = (spec.source or "").removeprefix("openapi:").split("/")[0].split("#")[0]
    tld = host.rsplit(".", 1)[-1].upper() if "." in host else ""
    tld = "GB" if tld == "UK" else tld
    if tld in COUNTRIES:
        return tld
    text = f"{spec.title} {spec.description or ''}"
    named = {code for code, row in COUNTRIES.items() if re.search(rf"\b{row[0]}\b", text)}
    return named.pop() if len(named) == 1 else None


def _odd_home(world: WalkWorld, walk: Walk, step: Step, service: str) -> bool:
    """Whether `service` is no place to find who placed an order: a booking app keeps its
    own appointments' customers (not "I need to reach Hana Chen about their
    order in Voodoo Manufacturing 3D Print ... The customer should be in OnSched
    Consumer")."""
    return walk.about == "order" and step.entity == "person" \
        and _kind(world, service) == "booking"


def _settled(world: WalkWorld, walk: Walk) -> str:
    """The walk's gist once its first write is made: a set-up note to a customer we have
    already says what the app they went into changes for them (`situations.set_up`)."""
    into = acted_in(walk.calls)
    if walk.gist != SET_UP or into is None:
        return walk.gist
    return set_up(_kind(world, into))


def _identity(node: ToolNode, kind: str) -> bool:
    """Whether a patterned write carries a value of `kind` when the tool does not require
    it: a new contact, company or meeting takes who it is of (name, email; a meeting its
    time and title too), not their phone, address or (a person's) company."""
    if node.effect != "read" and tool_entity(node) == "message":  # an email to Ana's
        return kind not in NAME_TYPES  # address, not "with their name" (Mandrill's `to[0].name`)
    if node.effect == "read" or tool_entity(node) not in _WHO_ENTITIES:
        return True
    if tool_entity(node) == "org":  # a company's account: who it is, not its money
        return kind not in _DETAILS and kind not in ("currency", "money")  # (no
    # "as a company with its currency")
    if tool_entity(node) in _PEOPLE:  # a new contact: who they are, no birthday, balance
        return kind in _WHO_KINDS  # or job (no Square "birthday" checked,
        # no new customer's "ledgerBalance" carried "with the same amount")
    return kind not in _DETAILS and kind != "company"


def _own_account(world: WalkWorld, service: Service, kind: str) -> random.Random:
    """The draw of the business's own account at a service (Twilio's account id): one per
    service and world, as its number is (not one number under three account ids)."""
    return random.Random(f"tenant:{service.name}:{kind}:{getattr(world, 'seed', 0)}")


def _our_number(service: Service, schema: dict[str, Any], world: int) -> Any:
    """The business's own number at a messaging service where the recipient's country is not
    known: one number drawn for the service in each world (the same in every task of one
    business; one sender in every task of all worlds reads as a template), never from
    the world's people (no text from a customer's own phone)."""
    return value_from_schema(schema, random.Random(f"sender:{service.name}:{world}"),
                             name="phone", service=service.name)


def _bind_sender(service: Service, arguments: dict[str, Any], bindings: dict[str, Binding],
                 properties: dict[str, Any], world: int) -> None:
    """Text from our number in the recipient's country: one per service, world and country,
    as a business texting customers abroad keeps local numbers (not every text across a
    border, `+234...` to `+1312...`); `_our_number` where no recipient's
    phone tells the country. Bound after the recipient, so drawn once."""
    to = next((arguments[p] for p, b in bindings.items() if b.type == "phone"
               and b.kind == "hidden" and not is_sender(p, b.type)), None)
    country = phone_country(to) if isinstance(to, str) else None
    for param, binding in bindings.items():
        if binding.kind == "visible" and is_sender_name(param, binding.type) \
                and arguments.get(param) is None:  # (a text's name is an SMS sender ID)
            arguments[param] = _coerce(our_sender_name(world, text=to is not None),
                                       properties.get(param, {}))
        elif binding.kind == "visible" and is_sender(param, binding.type) \
                and arguments.get(param) is None and binding.type == "email":
            arguments[param] = our_address(world)  # an email goes out from our own address
        elif binding.kind == "visible" and is_sender(param, binding.type) \
                and arguments.get(param) is None:
            schema = properties.get(param, {})
            arguments[param] = _our_number(service, schema, world) if country is None else \
                _coerce(make_phone(random.Random(f"sender:{service.name}:{world}:{country}"),
                                   country), schema)


_ZONE_WORDS = frozenset("timezone tz zone".split())


def _books_meeting(walk: Walk, node: ToolNode) -> bool:
    """Whether a call books the meeting a meeting workflow is about (with a purpose and the
    guest's hours), or a new colleague's induction (its purpose is `INDUCTION`, never
    "Proposal review" or "Product demo")."""
    return node.effect != "read" and tool_entity(node) == "event" and bool(walk.calls) \
        and bool(walk.meets)


def _purpose(walk: Walk, kind: str, rng: random.Random) -> Purpose:
    """What a walk's meeting is for: a new colleague's induction, else a purpose by the kind
    of app we know the person from (an intro call for a lead of the CRM)."""
    return INDUCTION if walk.meets == "hire" else meeting_purpose(kind, rng)


def _zone(param: str) -> bool:
    """Whether a booking's parameter is its time zone (`timezoneName`, `tz`)."""
    words = set(split_words(param))
    return bool(words & _ZONE_WORDS) or {"time", "zone"} <= words


def _meeting_fact(walk: Walk, param: str, kind: str, properties: dict[str, Any]) -> str:
    """What a meeting with a person says of itself besides its time: its title ("Account
    review", `walk.meeting`; in its notes where the booking has no title, as OnSched's
    appointment, whose `name` is its customer's); "" for any other parameter."""
    words = split_words(param)
    if walk.meeting is None or kind not in ("title", "string", "text"):
        return ""
    if _titles(words):
        return walk.meeting.title
    titled = any(_titles(split_words(p)) for p in properties)
    return walk.meeting.title if words in (["notes"], ["note"], ["description"]) \
        and not titled else ""


_TITLE_WORDS = frozenset("title summary subject".split())
_BOOKING_WORDS = frozenset("event meeting appointment booking session".split())


def _titles(words: list[str]) -> bool:
    """Whether a booking's parameter (its words) is its title: `summary`, `title`,
    `eventName`; never a bare `name` or `customerName` (whose booking it is)."""
    return bool(words) and (words[-1] in _TITLE_WORDS or (
        words[-1] == "name" and bool(set(words[:-1]) & _BOOKING_WORDS)))


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _guest_place(world: WalkWorld, carried: list[Any]) -> Any:
    """Where the person a meeting is booked with lives (their `Place`: its time zone), by
    the email the booking `carried` of them; None where no person of the world's pool has
    it."""
    people = _pool_people(world, carried)
    return people[0].place if people else None


def _pool_people(world: WalkWorld | None, values: list[Any]) -> list[Any]:
    """The people of the world's pool one of whose emails `values` hold, in pool order."""
    emails = {e.lower() for e in _EMAIL.findall(json_text(values))}
    return [person for person in getattr(getattr(world, "pool", None), "everyone", ())
            if person.email.lower() in emails or emails & set(person.other_emails)]


def _book_in_hours(node: ToolNode, arguments: dict[str, Any], bindings: dict[str, Binding],
                   rng: random.Random, zone: str | None = None) -> None:
    """A meeting the request books starts on a working day of the next two weeks at a
    half hour of office hours (no 00:23 of last year), and its stated end an hour later:
    the office hours of the guest's time `zone` where it is known, on the same day in UTC
    (no "14:30 UTC" with a +61 contact: that is 01:30 AEDT)."""
    times = {}
    for param, binding in bindings.items():
        role = role_of(param, binding.type, node.resource)
        if binding.kind == "visible" and binding.type in ("date", "datetime") and role and (
                role.meaning in ("start", "end")) and isinstance(arguments.get(param), str):
            times.setdefault(role.meaning, param)
    if "start" not in times:
        return
    day = NOW + timedelta(days=rng.randint(1, 14))
    while day.weekday() >= 5:
        day += timedelta(days=1)
    start = day.replace(hour=rng.randint(9, 16), minute=rng.choice((0, 30)), second=0)
    if zone is not None:
        start = _local_hours(start, ZoneInfo(zone)) or start
    for meaning, at in (("start", start), ("end", start + timedelta(hours=1))):
        param = times.get(meaning)
        if param is not None:
            arguments[param] = _like(arguments[param], at)


def _local_hours(start: datetime, zone: ZoneInfo) -> datetime | None:
    """`start`'s day and clock time read in `zone` (its hour, or the nearest office hour
    after or before it, 09:00-16:30 there), in UTC, where the hour it lasts is the same
    day in UTC (a day's date said to the guest is the booking's); None where no such hour
    is."""
    hours = sorted(range(9, 17), key=lambda h: (abs(h - start.hour), h))
    for hour in hours:
        local = datetime(start.year, start.month, start.day, hour, start.minute, tzinfo=zone)
        at = local.astimezone(UTC)
        if at.date() == local.date() == (at + timedelta(hours=1)).date():
            return at
    return None


def _like(drawn: str, at: datetime) -> str:
    """`at` written as `drawn` is: a date alone, or a time with `Z` or an offset."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", drawn):
        return at.strftime("%Y-%m-%d")
    stamp = re.fullmatch(
        r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?", drawn)
    return at.strftime("%Y-%m-%dT%H:%M:%S") + (stamp[1] or "") if stamp else drawn


def _environment_params(service: Service, node: ToolNode) -> set[str]:
    """The tool's infrastructure parameters (specs/infra.py), by name."""
    properties = service.tools[node.name].spec.parameters.get("properties", {})
    return {name for name, schema in properties.items() if is_infrastructure(name, schema)}


def _environment_value(
    world: WalkWorld, service: Service, node: ToolNode, param: str, schema: dict[str, Any],
    rng: random.Random,
) -> Any:
    """What the environment passes for a required infrastructure parameter: its default,
    else any value its schema accepts (it is never shown, so it need not read well)."""
    value = infrastructure_default(param, schema)
    if value is not NO_DEFAULT:
        return value
    return value_from_schema(schema, rng, name=param, service=service.name,
                             resource=_noun(node), pool=getattr(world, "pool", None))


def _hidden(source: Found, step: int) -> Binding:
    return Binding(kind="hidden", type=source.type, step=step, field=source.field,
                   path=source.path, selector=source.selector)


def _same_units(source: Found, schema: dict[str, Any]) -> bool:
    """Whether an amount keeps its meaning in a parameter: the world's integer amounts are
    minor units (cents) and its decimal ones major units, so an integer amount goes only
    into an integer parameter and a decimal one never does."""
    if source.type != "money" or isinstance(source.value, bool) \
            or not isinstance(source.value, int | float):
        return True
    kind = schema.get("type") if isinstance(schema, dict) else None
    return isinstance(source.value, int) == (kind == "integer")


def _coerce(value: Any, schema: dict[str, Any]) -> Any:
    """A discovered value in the parameter's JSON type (`"42"` for a string id, ...)."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind == "array" and not isinstance(value, list | dict):
        return [value]  # one address into a list of them (`to: ["ann@x.org"]`)
    if kind == "string" and isinstance(value, int | float):
        return str(value)
    if kind == "integer" and isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return value


def _literal(
    world: WalkWorld, service: Service, node: ToolNode, param: str, schema: dict[str, Any],
    rng: random.Random, draft: dict[str, Any] | None = None,
) -> Any:
    """A visible value: an existing id, else (a read's filter) a field of an existing
    record, else the call's `draft` (a new record's fields agree with each other), else a
    draw of its own."""
    state = service.state
    kind = node.params.get(param, "")
    if is_entity_id(kind):
        collection = _collection_of(service, kind)
        if collection and state.records(collection):
            return _coerce(rng.choice(sorted(state.records(collection))), schema)
    if draft and param in draft and node.effect != "read":
        return draft[param]
    records = state.records(node.resource) if node.resource else {}
    if records:
        fields = state.schemas.get(node.resource, {}).get("properties", {})
        matching = [key for key, sub in sorted(fields.items())
                    if key == param or (is_link_type(kind) and isinstance(sub, dict)
                    and semantic_type(key, sub, service=service.name,
                                      resource=node.resource) == kind)]
        record = records[rng.choice(sorted(records))]
        for key in matching:
            if key in record and record[key] is not None and not isinstance(record[key], dict):
                return _coerce(record[key], schema)
    if draft and param in draft:
        return draft[param]
    return value_from_schema(schema, rng, name=param, service=service.name,
                             resource=_noun(node), pool=getattr(world, "pool", None))


# Lists of the people a message goes to: each entry is one of several, at any depth.
_RECIPIENT_LISTS = frozenset("to cc bcc recipients attendees invitees participants guests "
                             "members".split())


def _one_of_many(field: str) -> bool:
    """Whether a value (by its typed path) is one entry of a list inside its record
    (`[].to[]`: one of an email's recipients), other than the record's own first email or
    phone (`[].emails[]`): no single answer ("the to" of an email), and nothing a check
    tells from the list's other entries, so an agent that dumps every record passed it."""
    lists = [part[:-2] for part in field.split(".") if part.endswith("[]")]
    inner = lists[1:] if (lists and lists[0] == "") or len(lists) > 1 else [
        name for name in lists if name in _RECIPIENT_LISTS]
    return any(not primary_list(name) for name in inner)


def _sole_entry(call: GoldCall, value: Found) -> bool:
    """Whether a value a workflow carries from a list inside its record (a meeting's
    `guests`) is that list's only entry: "thank the attendee" of a meeting with two guests
    says nobody in particular, and a check that wants one of them fails an agent that
    wrote to the other."""
    if not _one_of_many(value.field):
        return True
    try:
        entries = value_at(call.result, value.path.rsplit("[", 1)[0])
    except KeyError:
        return True
    return not isinstance(entries, list) or len(entries) <= 1


def _answer(walk: Walk, values: list[Found], rng: random.Random,
            types: tuple[str, ...] = ANSWER_TYPES) -> AnswerItem | None:
    """A value of the last result to report: one of `types` that the task does not state."""
    known = ("visible", "hidden") if walk.about else ("visible",)
    stated = {canonical_json(v) for c in walk.calls for k, v in call_arguments(c).items()
              if (b := c.bindings.get(k)) is not None and b.kind in known}
    # (to a workflow, a value the chain already carried is no news: the payee email of
    # the contact's payment is the contact's email)
    options = [f for f in values if f.type in types
               and canonical_json(f.value) not in stated
               and (not isinstance(f.value, str) or len(f.value) >= 3)
               and not _one_of_many(f.field)
               and (not walk.about or _matches_filters(walk.calls[-1], f))]
    if not options:  # (a workflow's lookup answers of the record it found, not a neighbour)
        return None
    pick = rng.choice(options)
    words = " ".join(split_words(pick.field.split(".")[-1].removesuffix("[]")))
    selector = pick.selector
    if walk.about and selector is not None and canonical_json(selector.value) in stated:
        selector = None  # the item the lookup found by the carried email: no need to say it
    return AnswerItem(step=len(walk.calls) - 1, path=pick.path, label=f"the {words}",
                      value=pick.value, selector=selector)
