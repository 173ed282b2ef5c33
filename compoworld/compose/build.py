"""Walk -> task: gold calls, rubric, instruction, distractors, capabilities, signature.

`compose_task` runs one random walk on a fresh world of the library, then turns what it
did into a `Task`. The rubric comes from the state diff of the services it touched and
from the answer it asks for (`rubric.build_rubric`); the instruction from the calls'
bindings (`instruction.write_instruction`). Nothing here checks the task: `verify.py`
does, on a replay.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from compoworld.compose.arguments import call_arguments
from compoworld.compose.distractors import choose_distractors
from compoworld.compose.each import (
    UNABLE,
    Selection,
    designed,
    near_misses,
    passes,
    reported,
    selections,
    taken,
    unnamed,
    whole_list,
    workflow_rules,
)
from compoworld.compose.guards import GUARDS, flagging, rejection
from compoworld.compose.instruction import (
    hidden_values,
    render_value,
    resolve_style,
    visible_values,
    write_instruction,
)
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.mix import KINDS, kind_of
from compoworld.compose.patterns import tool_entity
from compoworld.compose.records import AnswerItem, Criterion, GoldCall, Selector, Task
from compoworld.compose.references import is_sender, item_head
from compoworld.compose.rubric import build_rubric, describe_made
from compoworld.compose.scenario import write_scenario
from compoworld.compose.values import find_values, mentions, value_at
from compoworld.compose.walk import WalkConfig, go_on, random_walk, repeat_steps
from compoworld.compose.workflow import Workflow, job
from compoworld.graph.semtypes import is_tenant_id, singularize, split_words
from compoworld.reward.rubric import evaluate_criterion
from compoworld.world.state import canonical_json, json_text

DISTRACTORS = 2
# "with bindings email set to the email of ...", "search email is the email of the order":
# a field mapping, which a patterned request may not be
_MAPPING = re.compile(r" set to | is the [\w ]+ of the ")
PATTERN_TRIES = 3  # patterns a patterned candidate tries from its start before it gives up
SELECTION_TRIES = 2  # rules a walk asked for each record of a selection tries
MADE_ITS_SHARE = "the shard has made its share of this kind of task"
# share of the for-each walks whose request also asks whom they acted on (`each.reported`)
REPORTS = 0.5
# ... of the records that are people or companies: "the name of each appointment" read
# as a booking's title, where its name is whom it is for
REPORTED = frozenset({"person", "staff", "org"})
JOB_TRIES = 2  # workflows a walk asked for a job tries to go on into, per part
Paraphrase = Callable[[str, list[Any], list[Any], int], tuple[str, str | None]]


@dataclass(frozen=True, slots=True)
class Rejected:
    """A candidate walk that did not make a task, and why."""

    reason: str


def step_budget(calls: int) -> int:
    """Tool calls an agent may make: in the gateway view an agent lists a service's tools
    and describes a tool before calling it (3 calls per gold call at most), plus room to
    recover from a mistake or two."""
    return 3 * calls + 4


def capabilities(calls: list[GoldCall]) -> list[str]:
    """Capability tags of a gold solution (DESIGN.md; the issue's four tags).

    - `sequential-dependency`: a chain of at least three calls, each feeding the next;
    - `cross-env-constraint`: a value found in one service is used in another;
    - `fan-out`: one call's output feeds two or more later calls;
    - `aggregation`: one call takes hidden values from two or more earlier calls.
    """
    depth = [0] * len(calls)
    fed: Counter[int] = Counter()
    tags = set()
    for index, call in enumerate(calls):
        sources = {b.step for b in call.bindings.values() if b.kind == "hidden"}
        for step in sources:
            fed[step] += 1
            depth[index] = max(depth[index], depth[step] + 1)
            if calls[step].service != call.service:
                tags.add("cross-env-constraint")
        if len(sources) >= 2:
            tags.add("aggregation")
    if max(depth, default=0) >= 2:
        tags.add("sequential-dependency")
    if any(n >= 2 for n in fed.values()):
        tags.add("fan-out")
    order = ["sequential-dependency", "cross-env-constraint", "fan-out", "aggregation"]
    return [tag for tag in order if tag in tags]


def hops(calls: list[GoldCall]) -> int:
    """The longest chain of calls each fed a value the one before it found (a list, then
    the customer's record, then the refund to them: 2)."""
    depth = [0] * len(calls)
    for index, call in enumerate(calls):
        for binding in call.bindings.values():
            if binding.kind == "hidden" and binding.step is not None:
                depth[index] = max(depth[index], depth[binding.step] + 1)
    return max(depth, default=0)


def difficulty(calls: list[GoldCall], operators: list[str]) -> int:
    """1 to 5: one point, and one for each of four things that make a task harder: four
    calls or more, three apps or more, a chain of two hops or more, records to choose
    among others (a selection or a rank), and several of them to act on (for each,
    ensure); five at most."""
    points = [len(calls) >= 4, len({c.service for c in calls}) >= 3, hops(calls) >= 2,
              bool({"select", "rank"} & set(operators)),
              bool({"for_each", "ensure"} & set(operators))]
    return min(5, 1 + sum(points))


def signature(calls: list[GoldCall], answer_fields: list[tuple[int, str]]) -> str:
    """Digest of the tool chain and how each argument is bound (not the literal values):
    two tasks with the same signature ask for the same thing of different records."""
    chain = [
        [call.tool, sorted((param, b.kind, b.step, b.field) for param, b in call.bindings.items())]
        for call in calls
    ]
    return hashlib.sha256(canonical_json([chain, answer_fields])).hexdigest()[:24]


def typed_path(path: str) -> str:
    """`data[2].email` -> `data[].email`: a concrete path without its list indices."""
    return re.sub(r"\[\d+\]", "[]", path)


def compose_task(
    library: ServiceLibrary, world_seed: int, start: str, rng: random.Random, task_id: str,
    config: WalkConfig | None = None,
    paraphrase: Paraphrase | None = None,
    style: str = "goal",
    patterned: bool = False,
    workflow: Workflow | None = None,
    each: bool = False,
    jobs: bool = False,
    kinds: frozenset[str] = frozenset(KINDS),
) -> Task | Rejected:
    """One candidate task from a walk starting at `start` in world `world_seed`.

    With `paraphrase` (`(instruction, visible, hidden, seed) -> (text, reason)`, e.g.
    `paraphrase_instruction` over an LLM), the template instruction is replaced by the
    paraphrase when that one keeps every visible value and leaks no hidden one.
    `workflow` (patterned) is the one workflow the walk follows; else it tries up to
    `PATTERN_TRIES` of those its start can begin, longest first. With `each`, a workflow
    walk that can be is asked for every record a rule selects (`compose/each.py`); one that
    cannot stays a task of one record. With `jobs`, a workflow walk goes on into other
    workflows about the same record where one can (`_go_on`): one request, a job. A task
    of a kind (`compose/mix.kind_of`) not among `kinds` is no task: a shard that has made
    its share of errands makes no more.
    """
    begun = rng.getstate()
    made: list[Workflow] = []  # (the job the walk went on into, if any)
    task = _compose(library, world_seed, start, rng, task_id, config, paraphrase, style,
                    patterned, workflow, each, made if jobs and "job" in kinds else None,
                    kinds)
    if made and isinstance(task, Rejected) and kinds - {"job"}:  # (a job no request says,
        rng.setstate(begun)  # or its guards refuse: the walk of its first workflow alone)
        task = _compose(library, world_seed, start, rng, task_id, config, paraphrase, style,
                        patterned, workflow, each, None, kinds)
    return task


def _compose(
    library: ServiceLibrary, world_seed: int, start: str, rng: random.Random, task_id: str,
    config: WalkConfig | None, paraphrase: Paraphrase | None, style: str, patterned: bool,
    workflow: Workflow | None, each: bool, jobs: list[Workflow] | None,
    kinds: frozenset[str] = frozenset(KINDS),
) -> Task | Rejected:
    """`compose_task`'s one try; with `jobs` (a list, the job made put in it) the walk goes
    on into a job where it can."""
    plans: list[Workflow | None] = [None]
    if patterned and workflow is not None:
        plans = [workflow] if workflow in library.patterns_at(start) else []
        if not plans:
            return Rejected(f"workflow {workflow.name} does not begin at this tool")
    elif patterned:  # the walk follows a workflow people run, begun by its start tool
        plans = list(library.patterns_at(start))
        if not plans:
            return Rejected("no workflow pattern begins at this tool")
        rng.shuffle(plans)
        plans.sort(key=lambda p: -len(p.steps))  # longer workflows first: they span 3 apps
    for plan in plans[:PATTERN_TRIES]:  # each on a fresh world: a failed walk may have written
        world = library.world(world_seed)
        walk = random_walk(library.graph, world, start, rng, config or WalkConfig(), plan=plan,
                           apps=library.apps() if plan else None)
        if not walk.failure:
            break
    if walk.failure:
        return Rejected(walk.failure)
    if plan and jobs is not None:
        made = _go_on(library, world, walk, plan, start, rng, config or WalkConfig())
        if made is not plan:
            plan = made
            jobs.append(made)
    # what the walk can still become; where the shard has made its share of each, it is
    # told so before its records are probed, the costliest part of a walk
    reachable = {"job"} if plan and plan.parts else {"errand", *(["workflow"] if each else [])}
    if not reachable & kinds:
        return Rejected(f"{MADE_ITS_SHARE}: {'job' if 'job' in reachable else 'errand'}")
    selection, patch = None, []
    if plan and each:
        selection, world, patch = _select(library, world, world_seed, walk, plan, rng,
                                          config or WalkConfig())
    report = reported(walk.calls, selection) if selection and len(selection.heads) > 1 \
        and not walk.answer and plan.steps[0].entity in REPORTED \
        and rng.random() < REPORTS else []
    if report:  # (whom it acted on, in the answer: `aggregate`)
        selection = replace(selection, report=report[0].selector.field)
    answer = [*walk.answer, *report]
    kind = kind_of(len(plan.parts) if plan and plan.parts else 1,
                   selection.operators if selection else ())
    if kind not in kinds:
        return Rejected(f"{MADE_ITS_SHARE}: {kind}")
    _one_selector(walk.calls)
    services = list(dict.fromkeys(call.service for call in walk.calls))
    start_states, end_states = world.states(services)
    titles = {name: library.infos[name].app for name in services}
    try:
        rubric = build_rubric(start_states, end_states, walk.calls, answer, titles,
                              {c.tool: library.graph.nodes[c.tool].params for c in walk.calls},
                              says=plan.says if plan else (),
                              tells=plan.tells if plan else ())
    except ValueError as exc:  # e.g. a read that changed the state: nothing to check it by
        return Rejected(f"rubric: {exc}")
    if plan:
        rubric = _guest_first(library, walk.calls, end_states, rubric)
    rubric = _made_references(walk.calls, end_states, rubric)
    if selection:
        misses = near_misses(walk.calls, selection)
        rubric = _untouched(rubric, [m for m in misses if m is not None], start_states,
                            end_states)
        if sum(c.kind == "record_untouched" for c in rubric) < \
                max(1, sum(m is not None for m in misses)):
            return Rejected("a record the request leaves alone that no check can tell apart")
    descriptions = {c.tool: library.graph.nodes[c.tool].description for c in walk.calls}
    resources = {c.tool: library.graph.nodes[c.tool].resource for c in walk.calls}
    style = resolve_style(style, rng)  # `mixed` picks one per task; the task records which
    distractors = choose_distractors(library.infos, services, DISTRACTORS, world_seed)
    instruction = None
    first = walk.calls[:walk.steps[len(plan.steps) - 1] + 1] if selection and plan \
        else walk.calls  # (a selection's request says the steps of its first record)
    if selection and style != "goal":
        return Rejected("a selection is asked for as a goal")
    if plan and style == "goal":  # a workflow's request; goal.py's writer maps fields one by
        instruction = write_scenario(  # one, which no person asks for (as
            first, walk.answer, titles, rng, plan, resources=resources,  # "... the
            domains={name: library.infos[name].domain for name in services},  # customer in
            sole=_sole_makers(library, walk.calls, [*services, *distractors]),  # OnSched
            meeting=walk.meeting, local=walk.place,
            findable=_findable(world, walk.calls, [*services, *distractors]),
            each=selection)
        if instruction is None:  # Consumer whose email is that person's email")
            return Rejected("no request a person would make says this chain")
    if instruction is None:
        instruction = write_instruction(walk.calls, walk.answer, titles, rng,
                                        tool_descriptions=descriptions, style=style,
                                        purpose=plan.purpose if plan else None,
                                        resources=resources, gist=walk.gist,
                                        pattern=plan)
        if plan and style == "goal" and _MAPPING.search(instruction):
            return Rejected("the request maps fields one by one")
        if _nested(instruction):
            return Rejected("a request too nested to read")
    for calls in passes(walk.calls, walk.steps, len(plan.steps)) if selection and plan \
            else [walk.calls]:  # (each record of a selection: a walk of its own)
        if plan and (wrong := _wrong(library, plan, calls)):
            return Rejected(wrong)
    if selection and any(mentions(instruction, value) for value in hidden_values(
            walk.calls, answer) if render_value(value) != selection.value):
        return Rejected("the request would say a value the agent is to find")
    if any(_echoed(walk.calls, item) for item in walk.answer):
        return Rejected("the answer is a value its read was looked up by")
    if plan and any(_known(walk.calls, walk.subject.get(0), item.value) for item in walk.answer):
        return Rejected("the answer is a fact of the subject the first read already found")
    visible = visible_values(walk.calls, walk.answer)  # (a report's records are unnamed)
    hidden = hidden_values(walk.calls, answer)
    if selection:  # its records are named by the rule, not one by one
        visible = [v for v in visible if v not in unnamed(walk.calls)] + (
            [selection.said] if selection.value else [])
    if paraphrase is not None:
        instruction, _reason = paraphrase(instruction, visible, hidden, rng.randrange(1 << 31))
    return Task(
        task_id=task_id,
        services=services,
        distractors=distractors,
        world_seed=world_seed,
        instruction=instruction,
        visible_values=visible,
        hidden_values=hidden,
        gold_calls=walk.calls,
        answer=answer,
        rubric=rubric,
        capabilities=capabilities(walk.calls),
        step_budget=step_budget(len(walk.calls)),
        signature=signature(walk.calls, [(a.step, typed_path(a.path)) for a in answer]),
        instruction_style=style,
        pattern=plan.name if plan else None,
        world_patch=patch,
        operators=selection.operators if selection else [],
        kind=kind,
        hops=hops(walk.calls),
        difficulty=difficulty(walk.calls, selection.operators if selection else []),
        domain=plan.domain if plan else _domain(library, services),
    )


_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")


def _go_on(library: ServiceLibrary, world: Any, walk: Any, plan: Workflow, start: str,
           rng: random.Random, config: WalkConfig) -> Workflow:
    """The job a workflow's walk goes on into (`walk.go_on`), a part at a time while one
    takes: each a workflow the walk's start begins too (`ServiceLibrary.followers`), the
    whole walk judged by the job's guards; the walk's own workflow where none takes."""
    while followers := library.followers(start, plan):
        rng.shuffle(followers)
        for then in followers[:JOB_TRIES]:
            made = job(plan, then)
            if go_on(library.graph, world, walk, made, rng, config,
                     accept=lambda done, made=made: _wrong(library, made, done.calls) is None,
                     meets=then.situation):
                plan = made
                break
        else:
            return plan
    return plan


def _wrong(library: ServiceLibrary, plan: Workflow, calls: list[GoldCall]) -> str | None:
    """Why a workflow's walk of one record is no task: an instance its definition guards
    against, a person named and another's address used, an amount carried into a made-up
    currency, a write that needs two of our account ids said; None where none holds."""
    return rejection(library, plan.guards, calls) or _misfit(calls)


def _misfit(calls: list[GoldCall]) -> str | None:
    """Why a workflow's walk is no task, whatever its guards say (`_wrong` without them)."""
    if _someone_else(calls):
        return "the request names one person and the address is another's"
    if _relabelled(calls):
        return "an amount carried into a currency the request makes up"
    if _plumbing(calls):
        return "a write that needs two of our account ids said"
    return None


def _nested(text: str) -> bool:
    """Whether a sentence of a request chains three "whose" clauses or more ("the channel
    whose id is the channel id of the message in the channel whose member email is ...
    whose author email is ..."): a long free walk's lookups, said as one riddle."""
    return any(sentence.count(" whose ") > 2 for sentence in _SENTENCE.split(text))


# Names of a record that are no person's (a company's, a product's, an account's).
_NOT_A_PERSON = frozenset("company organization organisation org business account trading "
                          "legal product item file project team group channel".split())


def _someone_else(calls: list[GoldCall]) -> bool:
    """Whether a call writes to an email address carried from a record the request names by
    a person's name that the address is not theirs: "Victor Horvat's order" whose email is
    sofia.lee@... (a record of two people) sent Sofia the thanks meant for Victor."""
    for call in calls:
        for param, binding in call.bindings.items():
            selector = binding.selector
            if binding.kind != "hidden" or binding.type != "email" or selector is None \
                    or not isinstance(selector.value, str) or " " not in selector.value \
                    or split_words(selector.field)[-1:] != ["name"] \
                    or set(split_words(selector.field)) & _NOT_A_PERSON:
                continue
            local = str(call_arguments(call).get(param, "")).lower()
            names = [w.lower() for w in selector.value.split() if len(w) > 2]
            if "@" in local and names and not any(
                    w in local.split("@")[0] for w in names):
                return True
    return False


def _sole_makers(library: ServiceLibrary, calls: list[GoldCall], offered: list[str]
                 ) -> frozenset[str]:
    """The chain's meeting bookings and messages made in the one app of the task's
    (services and distractors) that books meetings or sends messages: "book them in on
    Monday ...", "email them ..." says where, as a person with one calendar and one mailbox
    does not (a request whose every act names its app reads as a form)."""
    sole = set()
    for call in calls:
        entity = tool_entity(library.graph.nodes[call.tool])
        if call.effect not in ("create", "action"):
            continue
        if entity == "event" and library.makers(entity) & set(offered) == {call.service}:
            sole.add(call.tool)
        to = {b.type for p, b in call.bindings.items() if b.kind == "hidden"
              and b.type in ("email", "phone") and not is_sender(p, b.type)}
        if entity == "message" and len(to) == 1 and \
                library.senders(to.pop()) & set(offered) == {call.service}:
            sole.add(call.tool)  # (the one app that emails, or texts, among them)
    return frozenset(sole)


def _findable(world: Any, calls: list[GoldCall], offered: list[str]) -> bool:
    """Whether the record the chain is about is known, by the values the request names it
    by (its selector's: a name, an email), in one app only of the task's (services and
    distractors) at the start: then the agent can find them without being told where they
    are kept. A name that a distractor holds too would leave two people to pick from."""
    values = {str(b.selector.value) for c in calls for b in c.bindings.values()
              if b.kind == "hidden" and b.step == 0 and b.selector is not None
              and isinstance(b.selector.value, str) and len(b.selector.value) > 3}
    if not values:
        return False
    start, _ = world.states(offered)
    holders = {name for name, state in start.items()
               if any(value in json_text(state.dump()) for value in values)}
    return holders == {calls[0].service}


# The collections a booking app keeps the people it books in.
_GUEST_LISTS = frozenset("customer customers client clients contact contacts guest guests "
                         "attendee attendees person people".split())


def _guest_first(library: ServiceLibrary, calls: list[GoldCall], end: dict[str, Any],
                 rubric: list[Any]) -> list[Any]:
    """The rubric with one new person allowed in the people list of each app a meeting is
    booked in: an agent that adds the customer to the booking app before booking them
    (as a receptionist does) did what was asked (a "nothing else changes" check failed
    such a run)."""
    booked = {call.service for call in calls if call.effect == "create"
              and tool_entity(library.graph.nodes[call.tool]) == "event"}
    if not booked or not rubric or rubric[-1].kind != "no_collateral_change":
        return rubric
    allowed = {service: dict(rules) for service, rules in rubric[-1].params["allowed"].items()}
    apps = []
    for service in sorted(booked):
        for collection in getattr(end.get(service), "collections", {}) or {}:
            if split_words(collection)[-1:] and split_words(collection)[-1] in _GUEST_LISTS:
                rule = dict(allowed.get(service, {}).get(collection, {}))
                rule["created"] = rule.get("created", 0) + 1
                allowed.setdefault(service, {})[collection] = rule
                apps.append(library.infos[service].app if service in library.infos else service)
    if not apps:
        return rubric
    note = (f" (adding the person to {' and '.join(dict.fromkeys(apps))} before booking them"
            " is fine)")
    guard = rubric[-1].model_copy(update={
        "params": {"allowed": allowed},
        "description": rubric[-1].description.removesuffix(".") + note + "."})
    bookings = [_by_reference(library, calls, end, c) for c in rubric[:-1]]
    return [*bookings, guard]


def _by_reference(library: ServiceLibrary, calls: list[GoldCall], end: dict[str, Any],
                  criterion: Any) -> Any:
    """A booking's check that also passes where the booking names its guest by their id
    in the app's people list (`customerId`) instead of by email: an agent that added the
    customer first books them by the new id (a check wanting the email failed such a
    run)."""
    if criterion.kind != "record_created":
        return criterion
    booking = next((c for c in calls if c.service == criterion.service and c.effect == "create"
                    and tool_entity(library.graph.nodes[c.tool]) == "event"), None)
    state = end.get(criterion.service)
    if booking is None or state is None:
        return criterion
    fields = criterion.params.get("fields", {})
    emails = [name for name, value in fields.items() if isinstance(value, str) and "@" in value
              and split_words(name)[-1:] == ["email"]]
    node = library.graph.nodes[booking.tool]
    for param, kind in sorted(node.params.items()):
        collection = kind.split(".")[1] if kind.startswith(f"{criterion.service}.") and \
            kind.endswith(".id") and kind.count(".") == 2 else ""
        if not emails or split_words(collection)[-1:] == [] or \
                split_words(collection)[-1] not in _GUEST_LISTS:
            continue
        schema = state.schemas.get(collection, {}).get("properties", {})
        key = next((k for k in sorted(schema) if split_words(k)[-1:] == ["email"]), None)
        if key is None:
            continue
        # the guest's id beside their email is no second demand: either names them
        # (a check wanting "customerId 'cus_0004'" as well failed bookings by email)
        kept = {name: value for name, value in fields.items() if name != param}
        params = {**criterion.params, "fields": kept, "by_reference": {
            emails[0]: {"field": param, "collection": collection, "key": key}}}
        title = library.infos[criterion.service].app if criterion.service in library.infos \
            else criterion.service
        return _referring(criterion, params,
                          f" The booking may name the person by {param} instead of "
                          f"{emails[0]}: the {singularize(collection)} in {title} with "
                          f"that {key}.")
    return criterion


def _referring(criterion: Any, params: dict[str, Any], said: str) -> Any:
    """`criterion` with `params` that let a record name its person by reference, described
    anew, and `said`: how it may name them."""
    head = criterion.description.partition(" with ")[0]
    return criterion.model_copy(update={"params": params,
                                        "description": describe_made(head, params) + said})


def _made_references(calls: list[GoldCall], end: dict[str, Any], rubric: list[Any]
                     ) -> list[Any]:
    """Checks that name whom a write's record is for where it took the id of a record an
    earlier write of the task made: a booking's `customerId` of the customer just added
    is checked as naming the customer with that email (`by_reference`). The id itself is
    the app's to give, so no check may want its value, and a booking checked by its times
    alone passed whoever it was for (a SalesLoft task's `person_id`, by the person's
    `email_address`, likewise)."""
    rubric = list(rubric)
    for call in calls:
        if call.effect == "read":
            continue
        for param, binding in sorted(call.bindings.items()):
            made = calls[binding.step] if binding.kind == "hidden" and \
                binding.step is not None else None
            parts = binding.type.split(".")
            if made is None or made.effect == "read" or made.service != call.service \
                    or len(parts) != 3 or parts[0] != call.service or parts[2] != "id":
                continue
            state = end.get(call.service)
            held = call_arguments(call).get(param)
            holder = state.records(parts[1]).get(str(held)) if state is not None else None
            key = next((k for k in sorted(holder or {}) if "email" in split_words(k)
                        and isinstance(holder[k], str) and "@" in holder[k]), None)
            mine = [i for i, c in enumerate(rubric) if c.kind == "record_created"
                    and c.service == call.service and c.params.get("collection") != parts[1]
                    and key not in c.params.get("fields", {})]
            if key is None or len(mine) != 1:
                continue
            criterion = rubric[mine[0]]
            params = {**criterion.params,
                      "fields": {**criterion.params["fields"], key: holder[key]},
                      "by_reference": {**criterion.params.get("by_reference", {}),
                                       key: {"field": param, "collection": parts[1],
                                             "key": key}}}
            rubric[mine[0]] = _referring(criterion, params,
                                         f" It may name them by {param}: the "
                                         f"{singularize(parts[1])} with that {key}.")
    return rubric


def _relabelled(calls: list[GoldCall]) -> bool:
    """Whether a write carries an amount and states a currency of its own (an Avaza
    price of 39 put into Billingo as 39 "IDR", or 449 "NOK" for a desk, relabels it)."""
    return any(call.effect != "read"
               and any(b.kind == "hidden" and b.type == "money" for b in call.bindings.values())
               and any(b.kind == "visible" and b.type == "currency"
                       for b in call.bindings.values())
               for call in calls)


def _plumbing(calls: list[GoldCall]) -> bool:
    """Whether a write needs two or more of our own account ids said (Codat's company and
    connection UUIDs): an integration layer's plumbing, not where anyone says they keep
    customers (no user quotes Codat UUIDs; Codat is an aggregator, not where a firm
    invoices)."""
    return any(sum(b.kind == "visible" and is_tenant_id(b.type) for b in call.bindings.values())
               >= 2 for call in calls if call.effect != "read")


def _echoed(calls: list[GoldCall], item: AnswerItem) -> bool:
    """Whether an answer is a value the call it is read from was given ("the shared with
    of the file whose shared with email is farid@..." is farid@...): no finding, and an
    agent that read everything passes it without knowing which one was meant."""
    given = call_arguments(calls[item.step]).values() if 0 <= item.step < len(calls) else ()
    return any(json_text(value) == json_text(item.value) for value in given)


def _known(calls: list[GoldCall], head: str | None, value: Any) -> bool:
    """Whether an answer is a fact the first read already gave about the subject: "the
    customer name of Kofi Fournier's expense" is Kofi Fournier (his first and last name
    in the user record), no lookup's finding."""
    try:
        item = json_text(value_at(calls[0].result, head or "")).lower()
    except KeyError:
        return False
    words = [w for w in re.findall(r"[\w@.+-]+", str(value).lower()) if len(w) >= 2]
    return bool(words) and all(json_text(w)[1:-1] in item for w in words)


def _one_selector(calls: list[GoldCall]) -> None:
    """Name each list item one way: every value taken from one item gets the selector of
    the first (a company's name picked by its fax and its fax by its name would make the
    request state both, "the company whose name is ... and whose fax is ...")."""
    first: dict[tuple[int | None, str], Selector] = {}
    for call in calls:
        for param, binding in call.bindings.items():
            if binding.kind != "hidden" or binding.selector is None or not binding.path:
                continue
            chosen = first.setdefault((binding.step, item_head(binding.path)), binding.selector)
            if binding.selector != chosen:
                call.bindings[param] = binding.model_copy(update={"selector": chosen})


def _select(library: ServiceLibrary, world: Any, world_seed: int, walk: Any, plan: Workflow,
            rng: random.Random, config: WalkConfig
            ) -> tuple[Selection | None, Any, list[dict[str, Any]]]:
    """A rule over the records of the walk's first read that selects its record and one to
    three others, or a rank that takes it (`compose/each.py`), its steps made for each of
    them: the selection, the world it was made in, and the patch that world holds. Where
    the world holds no such rule, one the workflow names is set up in it (`designed`: its
    records and near-misses given their values) and the walk made again there. None (the
    walk and world as they were) when neither works."""
    head = walk.subject.get(0)
    if head is None or len(walk.steps) != len(plan.steps):
        return None, world, []
    call = walk.calls[0]
    node = library.graph.nodes[call.tool]
    state = world.service(call.service).state
    total = len(state.records(node.resource or ""))
    rules = workflow_rules(plan.operators)
    listed = whole_list(call, head, total)
    if listed is None or not rules.chooses:
        return None, world, []  # (no rule could choose: nothing to probe records for)
    copies = len(plan.steps) == 2 and plan.steps[1].entity == plan.steps[0].entity \
        and "create" in plan.steps[1].effects  # (a copy adds only who is missing; one with
    # a message after it would leave the ones passed over unsure of theirs)

    def fits(made: Any) -> bool:  # (each record's own walk, as the guards ask of one)
        return not any(_wrong(library, plan, calls)
                       for calls in passes(made.calls, made.steps, len(plan.steps)))
    where, items, _ = listed
    probed = _probe(library, world, walk, plan, rng, config, copies, where, len(items)) \
        if any(GUARDS[name].holds for name in plan.guards) else {}
    options = selections(call, head, total, rules, probed)
    rng.shuffle(options)
    options.sort(key=lambda o: len(o.heads) < 2)  # (the same steps for several first)
    for option in options[:SELECTION_TRIES]:
        passed = repeat_steps(library.graph, world, walk, plan, option.heads[1:], rng, config,
                              ensure=copies, accept=fits)
        if passed is not None:
            return replace(option, heads=tuple(h for h in option.heads if h not in passed),
                           present=passed), world, []
    made = designed(call, head, total, rules, rng, (call.service, node.resource or "",
                                                      state.id_field(node.resource or "")),
                    taken(walk.calls, head), {item for item, why in probed.items() if why})
    if made is None and rules.held:
        made = _guard_set_up(library, walk, plan, probed, rules, rng, total,
                             state.schemas.get(node.resource or "", {}),
                             state.id_field(node.resource or ""), where, items)
    if made is None:
        return None, world, []
    option, patch = made
    before, found = walk.calls[0], walk.found[0]
    patched = _patched(library, world_seed, patch, walk, option)
    if patched is None:
        return None, world, []
    passed = repeat_steps(library.graph, patched, walk, plan, option.heads[1:], rng, config,
                          ensure=copies, accept=fits)
    if passed is None:  # (the first world's list back: the walk stays a task there)
        walk.calls[0], walk.found[0] = before, found
        return None, world, []
    return replace(option, heads=tuple(h for h in option.heads if h not in passed),
                   present=passed), patched, patch


def _guard_set_up(library: ServiceLibrary, walk: Any, plan: Workflow, probed: dict[str, str],
                  rules: Any, rng: random.Random, total: int, schema: dict[str, Any],
                  id_field: str, where: str, items: list[Any]
                  ) -> tuple[Selection, list[dict[str, Any]]] | None:
    """Where a workflow may be asked for every record its guards allow (`EVERY_VALID`) and
    its guards flag none of the list: one other record given a status its schema allows
    that a guard flags (a colleague "inactive" beside the active ones, an invoice "paid"
    beside the open ones), the near-miss the request's words leave alone, and the
    selection that makes; as `designed`'s, with the patch that sets it. None where no
    status of its schema's is one a guard flags with words to say it (`items`: the
    walk's first list, at `where`)."""
    call, head = walk.calls[0], walk.subject[0]
    if any(probed.values()):
        return None  # (a record flagged already: the world holds its rule, or cannot)
    index = int(head.rpartition("[")[2].rstrip("]"))
    fields = schema.get("properties", {}) if isinstance(schema, dict) else {}
    others = [i for i in range(len(items)) if i != index and isinstance(items[i], dict)
              and id_field in items[i] and probed.get(f"{where}[{i}]") == ""]
    rng.shuffle(others)
    for i in others[:2]:
        for key in sorted(k for k, v in items[i].items() if isinstance(v, str)
                          and split_words(k)[-1:] in (["status"], ["state"])):
            enum = (fields.get(key) or {}).get("enum") or []
            for value in [v for v in enum if isinstance(v, str) and v != items[i][key]]:
                trial = [*items[:index], items[i] | {key: value}, *items[index + 1:]]
                seen = call.model_copy(update={"result": _put(call.result, where, trial)})
                guard = flagging(library, plan.guards, [seen, *walk.calls[1:]])
                if guard is None or not guard.holds:
                    continue  # (the record in that status, read as the walk's: flagged?)
                listed = _put(call.result, where, [
                    *items[:i], items[i] | {key: value}, *items[i + 1:]])
                options = [o for o in selections(
                    call.model_copy(update={"result": listed}), head, total, rules,
                    probed | {f"{where}[{i}]": guard.holds}) if not o.field and not o.order]
                if options:
                    return options[0], [{"service": call.service, "collection":
                                         library.graph.nodes[call.tool].resource or "",
                                         "id": items[i][id_field], "field": key,
                                         "value": value}]
    return None


def _shows(item: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Whether a listed record shows the value a patch entry set: a word as it was set
    (any case), a list of labels as it was set."""
    value, shown = entry["value"], item.get(entry["field"])
    if isinstance(value, list):
        return shown == value
    return isinstance(value, str) and str(shown or "").strip().lower() == value.strip().lower()


def _put(data: Any, where: str, items: list[Any]) -> Any:
    """`data` with the list at `where` (`data`, `result.items`) replaced by `items`."""
    if not where:
        return items
    copied = json.loads(json.dumps(data))
    parent, _, last = where.rpartition(".")
    holder = value_at(copied, parent) if parent else copied
    holder[last] = items
    return copied


def _probe(library: ServiceLibrary, world: Any, walk: Any, plan: Workflow,
           rng: random.Random, config: WalkConfig, copies: bool, where: str, size: int
           ) -> dict[str, str]:
    """Per other record of the walk's first list (`size` records at `where`), whether the
    workflow's steps may be made for it: "" where they may, the `holds` of a guard that
    flags its walk ("that is still open"), `UNABLE` where no step can be made for it or a
    guard with no such words flags it. Each record's steps are made, judged, and undone
    (`repeat_steps`' `accept`)."""
    found: dict[str, str] = {}
    for item in (f"{where}[{i}]" for i in range(size)):
        if item == walk.subject[0]:
            continue
        said: list[str] = []

        def judge(made: Any, said: list[str] = said) -> bool:
            calls = passes(made.calls, made.steps, len(plan.steps))[-1]
            guard = flagging(library, plan.guards, calls)
            if guard is not None:
                said.append(guard.holds or UNABLE)
            else:
                said.append(UNABLE if _misfit(calls) else "")
            return False  # (judged; never kept)
        repeat_steps(library.graph, world, walk, plan, (item,), rng, config, ensure=copies,
                     accept=judge)
        found[item] = said[0] if said else UNABLE
    return found


def _patched(library: ServiceLibrary, world_seed: int, patch: list[dict[str, Any]], walk: Any,
             option: Selection) -> Any:
    """A world holding `patch`, with the walk's calls made again in it; None (the walk as
    it was) when they do not give what they gave (a later call that read the field the
    patch sets), the first list does not show each record as patched, or a record is
    named by a field the patch sets."""
    world = library.world(world_seed, patch)
    results = [world.call(call.tool, call.arguments) for call in walk.calls]
    first = results[0]
    if not all(r["success"] for r in results) or any(
            r["data"] != call.result for r, call in zip(results[1:], walk.calls[1:],
                                                        strict=True)):
        return None
    node = library.graph.nodes[walk.calls[0].tool]
    id_field = world.service(walk.calls[0].service).state.id_field(node.resource or "")
    try:
        listed = value_at(first["data"], option.heads[0].rpartition("[")[0])
    except KeyError:
        return None
    shown = {str(item.get(id_field)): item for item in listed if isinstance(item, dict)}
    if not all(_shows(shown.get(str(entry["id"]), {}), entry) for entry in patch) or any(
            b.selector is not None and b.selector.field in {e["field"] for e in patch}
            for call in walk.calls for b in call.bindings.values()):
        return None
    walk.calls[0] = walk.calls[0].model_copy(update={"result": first["data"]})
    walk.found[0] = find_values(first["data"], node.outputs)
    return world


def _untouched(rubric: list[Criterion], misses: list[list[str]], start: dict[str, Any],
               end: dict[str, Any]) -> list[Criterion]:
    """The rubric with a criterion per record a selection leaves alone, before its guard:
    nothing made or changed carries its texts (its email, its phone), but those the gold
    run's own records carry too (a near-miss whose address is our own mailbox). A run that
    acts on a near-miss fails it, and the guard too."""
    def untouched(texts: list[str]) -> Criterion:
        return Criterion(id="", kind="record_untouched", service=None,
                         description=f"Nothing is created or changed for the record of "
                         f"{' / '.join(texts)}, which the request leaves alone.",
                         params={"values": texts})
    kept = [[t for t in texts if evaluate_criterion(untouched([t]), start, end, "")]
            for texts in misses]
    extra = [(c := untouched(texts)).model_copy(
        update={"noop_passes": evaluate_criterion(c, start, start, "")})
        for texts in kept if texts]
    return [c.model_copy(update={"id": f"c{i}"})
            for i, c in enumerate([*rubric[:-1], *extra, rubric[-1]])]


def _domain(library: ServiceLibrary, services: list[str]) -> str | None:
    """The corpus category most of a free walk's services share."""
    domains = Counter(library.infos[name].domain for name in services if name in library.infos)
    return domains.most_common(1)[0][0] if domains else None
