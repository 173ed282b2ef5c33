"""The `graph` and `compose` stages' work functions, and how compose is split into shards.

A run has `worlds` world seeds (`DEFAULT_WORLDS`) and shard `i` composes every task in
world `i % worlds` (a top-up wave's shard in world `i`, see `shard_world`). A shard walks
from a set of start tools (every read tool with a linkable output, in a seeded order): the
shards of one world split them, so no two make the same task there (a task's signature
begins with its start tool), while shards of different worlds walk from the same tools over
other people and records. Each shard's quota of verified tasks is fixed by its index alone;
the tasks record their world seed.
Every candidate walk leaves a row in `walks` (its outcome), every composed task a row in
`tasks` (verified or not, with each check).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from compoworld.compose.build import Paraphrase, Rejected, compose_task
from compoworld.compose.each import workflow_rules
from compoworld.compose.instruction import INSTRUCTION_STYLES, resolve_style
from compoworld.compose.judge import DEFAULT_THRESHOLD, Judgement, judge_task, keep
from compoworld.compose.library import ServiceLibrary, forget_world
from compoworld.compose.mix import DEFAULT_MIX, KINDS, caps, parse_mix
from compoworld.compose.paraphrase import paraphrase_instruction
from compoworld.compose.patterns import feasible, patterns_from, tool_entity
from compoworld.compose.records import Task
from compoworld.compose.verify import CHECKS, Deduper, verify_task
from compoworld.compose.walk import START_FAILED, WalkConfig, needs_a_search
from compoworld.compose.workflow import Workflow
from compoworld.compose.workflows import WORKFLOWS, run_workflows
from compoworld.graph.depgraph import EDGE_THRESHOLD, DependencyGraph, ToolNode, is_link_type
from compoworld.graph.semtypes import is_entity_id
from compoworld.shards import Shard, plan_chunks
from compoworld.world.seeds import derive_seed
from compoworld.world.state import json_text

WALKS = ("pattern", "free")  # walks seeded from a workflow pattern, or free random walks
DEFAULT_WALKS = "pattern"
DEFAULT_TASKS = 5000  # verified tasks a run composes by default (the paper's pool)
# A world has 20 people and 8 companies: tasks all in one world onboard the same few
# people again and again (one customer was in 8 of 40 sampled tasks). And a shard makes each
# workflow chain once (its signature), over the few dozen chains the library holds: a
# world of every start tool verifies ~40 tasks before its start tools are spent
# (`STALE_AFTER`), 79 in 10,000 walks. So by default every shard is a world of its own,
# walking from every start tool: 125 shards of 40 tasks.
DEFAULT_WORLDS = 200
DEFAULT_TASKS_PER_SHARD = 40
CANDIDATES_PER_TASK = 40  # walks a shard may try per task of its quota before it gives up
# Walks in a row that verify nothing after which a start tool is given up: in a shard of
# 1,500 walks, 155 of 172 starts tried never got past their walk and took 1,342 of the
# walks, while the 17 that verified anything mostly did so by their fourth walk; a start
# whose chains are all made (each is made once a shard) only repeats them. With 8, a
# shard verifies 37-44 tasks in ~1,240 walks (0.5-0.7 a second), against 30 in 1,500.
STALE_AFTER = 8
# The first shards of a run of free walks walk from every start tool; the rest only from
# those that verified a task there (`focus`): most start tools verify nothing, and a free
# walk, which no workflow draws, would spend most of its shard's time on them. A patterned
# run walks from every start in every shard: its walks draw a workflow first (`Draws`).
PROBE_SHARDS = 10
# Waves of further shards, in fresh worlds, while a run is short of its tasks (`top_up`):
# 125 shards of 40 verify ~3,400 of the default 5,000, a second wave of ~60 the rest.
TOP_UPS = 3
# A patterned shard stops after this many walks in a row that verified nothing, and leaves
# what it is short of to the next wave's fresh worlds (`top_up`): by then the workflows its
# world makes easily have their share, and the last few tasks of a shard of 40 had taken
# 50 to 500 walks (the first 34, 5 to 6 walks each). Free walks over sparse links may go
# longer between tasks.
DRY_SPELL = 60
# The largest share of a shard's quota one workflow may take (`workflow_share`): walks draw
# a workflow first, so that every workflow the library can run gets its turn, and one that
# verifies easily does not crowd out the rest. Where fewer workflows than 1 / share are still
# alive in the shard, they share its quota equally instead.
WORKFLOW_SHARE = 0.05
# The largest share of a shard's quota one app may take part in (`service_share`, at least
# one task): a step draws among the apps that can do it, and one whose share is taken is
# no longer drawn. Only two mailboxes send as the user, so without it every note to a
# colleague went through Gmail or Google Workspace (16% of a run's tasks each).
SERVICE_SHARE = 0.08
# The share of workflow walks asked for the records a rule or a rank chooses ("remind every
# customer whose invoice is overdue", "the two oldest tickets"): `compose/each.py`. All of
# them: a walk whose list holds no rule stays a one-record request anyway (most do), and
# asking every walk doubles the tasks that choose at the same walks per gold call.
FOR_EACH = 1.0
# The share of workflow walks asked to go on into other workflows about the same record,
# as one request (a job: `build._go_on`). All of them: a walk that cannot stays the
# workflow it made, at the cost of the steps it tried (most walks have no workflow to go
# on into: a job sets its record up and does one act of its own purpose).
JOBS = 1.0
JUDGED_OUT = "judged below threshold"  # the walks outcome of a verified task the judge drops

Judge = Callable[[Task, int], Judgement]  # (task, seed) -> its ratings


def start_tools(graph: DependencyGraph, *, patterned: bool = False) -> list[str]:
    """Read tools with at least one linkable output: where walks may start; `patterned`:
    only those that begin a workflow pattern (compose/patterns.py)."""
    return [
        name for name, node in graph.nodes.items()
        if node.effect == "read" and any(is_link_type(t) for t in node.outputs.values())
        and (not patterned or (_startable(node)
                               and any(feasible(graph, name, p)
                                       for p in patterns_from(node, WORKFLOWS))))
    ]


def planned_starts(library: ServiceLibrary) -> list[str]:
    """The start tools a patterned run walks from: those that begin one of the run's
    workflows in an app the workflow may use (`ServiceLibrary.patterns_at`), as its shards
    see them. A plan that counted every start the graph allows walked, over a library of
    telecom and travel tools, 61 shards from starts no shard could use, and said nothing."""
    # (its feasibility once: in patterns_at, the apps' filter applied)
    return [name for name in start_tools(library.graph)
            if _startable(library.graph.nodes[name]) and library.patterns_at(name)]


def unfit(graph: DependencyGraph, library: ServiceLibrary | None = None) -> str:
    """Why no workflow begins anywhere in `graph`, in one line: which entities its tools
    read and write, and what the workflows that could begin there lack for their second
    step (`a tool that writes message records`, or one in another app: a workflow crosses
    apps), so that a team bringing its own tools knows what to add or which workflow to
    write."""
    readers: dict[str, set[str]] = {}  # entity -> services that read it
    makers: dict[tuple[str, str], set[str]] = {}  # (effect, entity) -> services that do it
    for node in graph.nodes.values():
        entity = tool_entity(node)
        if entity and node.effect == "read":
            readers.setdefault(entity, set()).add(node.service)
        if entity and (node.effect == "read" or node.writes):
            makers.setdefault((node.effect, entity), set()).add(node.service)
    reads = set(readers)
    writes = {entity for effect, entity in makers if effect != "read"}
    missing: Counter[str] = Counter()
    for workflow in WORKFLOWS:
        first, step = workflow.steps[0].entity, workflow.steps[1]
        if first not in reads:
            continue
        able = set().union(*(makers.get((effect, step.entity), set())
                             for effect in step.effects))
        verb = "reads" if step.effects == ("read",) else "writes"
        need = f"a tool that {verb} {step.entity.replace('_', ' ')} records"
        missing[need if not able else f"{need} in another app" if able <= readers[first]
                else f"{need} fed by what the first read returns"] += 1
    said = (f"no workflow begins at its tools: they read {_listed(reads)} and write "
            f"{_listed(writes)}")
    barred = sorted({graph.nodes[s].service for s in start_tools(graph, patterned=True)}) \
        if library is not None else []
    if barred:  # (workflows could begin there, in apps none of them may use)
        return (f"{said}; workflows could begin only in {', '.join(barred[:4])}"
                f"{' and others' if len(barred) > 4 else ''}, whose category keeps no "
                "customers, colleagues or tickets of a business (compose/patterns.py)")
    if missing:
        needs = "; ".join(f"{need} ({count} workflow{'s' if count > 1 else ''})"
                          for need, count in missing.most_common(3))
        return f"{said}; the workflows that begin at their reads lack {needs}"
    begins = sorted({w.steps[0].entity.replace("_", " ") for w in WORKFLOWS})
    return f"{said}; workflows begin by reading {', '.join(begins)}"


def _listed(entities: set[str]) -> str:
    return ", ".join(sorted(e.replace("_", " ") for e in entities)) or \
        "nothing the ontology names"


def _startable(node: ToolNode) -> bool:
    """Whether a workflow may begin at a read: one that needs neither a record's id nor a
    search term, which no request states."""
    return not _asks_for_an_id(node) and not needs_a_search(node)


def _asks_for_an_id(node: ToolNode) -> bool:
    """Whether a read needs a record's id: a person knows a contact by name, not `con_0002`."""
    return any(is_entity_id(node.params.get(p, "")) for p in node.required)


def order_starts(starts: list[str], seed: int) -> list[str]:
    """Start tools in a seeded order, so each shard gets tools of many services."""
    ordered = sorted(starts)
    random.Random(derive_seed("starts", seed)).shuffle(ordered)
    return ordered


def shard_quota(tasks: int, index: int, count: int) -> int:
    """Verified tasks shard `index` of `count` must make (they sum to `tasks`)."""
    return tasks // count + (1 if index < tasks % count else 0)


def shard_world_seed(seed: int, index: int) -> int:
    """The seed of world `index` of a run (see `shard_world`)."""
    return derive_seed("compose-world", seed, index) % (1 << 48)


def shard_world(shard: Shard) -> int:
    """The world shard `i` composes in: `i % worlds` for the planned shards, and `i` itself
    for a top-up wave's (numbered on from every shard before it, so a world no shard
    walked, however many `worlds` the plan cycled through)."""
    if shard.params.get("first"):
        return shard.index
    return shard.index % shard.params.get("worlds", 1)


def graph_shard(shard: Shard, store: Any) -> dict[str, list[dict[str, Any]]]:
    """The `graph` stage: the stored edge sample and the exact statistics of the graph."""
    graph = ServiceLibrary.from_store(store, shard.run_id).graph
    services = {name: node.service for name, node in graph.nodes.items()}
    edges = [
        {"source": e.source, "source_service": services[e.source], "field": e.field,
         "target": e.target, "target_service": services[e.target], "param": e.param,
         "type": e.type, "cross_service": e.cross_service, "score": round(e.score, 3)}
        for e in graph.edges(shard.params["fanout"])
    ]
    stats = graph.stats()
    return {
        "graph_edges": edges,
        "graph_stats": [
            {key: stats[key] for key in ("nodes", "services", "edges", "cross_service_edges",
                                         "connected_services", "service_pairs")}
            | {"stored_edges": len(edges), "start_tools": len(start_tools(graph)),
               "out_degree": orjson.dumps(stats["out_degree"]).decode(),
               "in_degree": orjson.dumps(stats["in_degree"]).decode()}
        ],
    }


@dataclass(slots=True)
class Candidate:
    """One candidate walk: where it started, the task it made (or None), the outcome."""

    index: int
    start: str
    task: Task | None
    checks: dict[str, bool] | None
    outcome: str
    walk_seconds: float
    verify_seconds: float
    judgement: Judgement | None = None
    kept: bool | None = None  # the judge's verdict (None: not judged)


def walk_style(style: str, seed: int, shard: int, index: int) -> str:
    """The instruction style of walk `index`: `style`, or for `mixed` goal or steps drawn
    from a seed of its own (so the walk itself is the same under every style)."""
    return resolve_style(style, random.Random(derive_seed("style", seed, shard, index)))


def candidates(
    library: ServiceLibrary, starts: list[str], *, seed: int, shard: int, world_seed: int,
    quota: int, limit: int, paraphrase: Paraphrase | None = None, style: str = "goal",
    judge: Judge | None = None, judge_threshold: float = DEFAULT_THRESHOLD,
    patterned: bool = False, edge_threshold: float = EDGE_THRESHOLD,
    workflow_share: float = WORKFLOW_SHARE, service_share: float = SERVICE_SHARE,
    for_each: float = FOR_EACH, jobs: float = JOBS, mix: str = DEFAULT_MIX,
) -> Iterator[Candidate]:
    """Candidate walks of one shard, in order, until `quota` tasks verified or `limit`
    walks were made, or, patterned, `DRY_SPELL` in a row verified nothing (or every start
    tool proved dead: its first call fails, `STALE_AFTER` of its walks in a row verify
    nothing, or, patterned, it begins no workflow of the library's work apps). With `judge`,
    a task that passes every check is rated too, and one rated below `judge_threshold`
    does not count toward the quota (its outcome is `JUDGED_OUT`).
    Patterned, each walk draws a workflow first (`Draws`: any one of those its starts can
    begin, while it has taken less than its share of the quota), then one of its starts.
    A share `for_each` of the walks (drawn by a seed of each walk's own) asks its workflow
    for every record a rule selects (`compose/each.py`), and a share `jobs` to go on into
    other workflows about the same record (a job). Patterned, the quota is split among
    errands, workflows and jobs by `mix` (`compose/mix.py`): once the shard has made its
    share of a kind, a walk that makes one is no task."""
    deduper = Deduper()
    verified = 0
    dead: set[str] = set()
    stalls: dict[str, int] = {}  # walks in a row of a start that verified nothing

    def stalled(start: str) -> bool:
        stalls[start] = stalls.get(start, 0) + 1
        return stalls[start] >= STALE_AFTER
    spread: Counter[str] = Counter()  # services of the shard's verified tasks
    cap = service_cap(service_share, quota, len(library.work_apps())) if patterned else None
    config = WalkConfig(edge_threshold=edge_threshold, spread=spread if patterned else None,
                        service_cap=cap)
    draws = Draws(library, starts, quota, workflow_share, spread, cap) if patterned else None
    if draws is not None:  # (each workflow may take `STALE_AFTER` walks to be given up: a
        # small quota's walks would run out on the dead ones before the live ones had theirs)
        limit += STALE_AFTER * len(draws.begins)
    if patterned:  # a start in an app no workflow runs through (a music database) is dead
        dead = {item for item in starts if not library.patterns_at(item)}
    last = -1  # the walk that verified last
    share = caps(parse_mix(mix), quota) if patterned else None
    kinds: Counter[str] = Counter()  # kinds of the shard's verified tasks
    for index in range(limit):
        if verified >= quota or len(dead) == len(starts) or (
                draws is not None and index - last > DRY_SPELL) or (
                share is not None and all(kinds[k] >= share[k] for k in KINDS)):
            return
        began = time.perf_counter()
        rng = random.Random(derive_seed("walk", seed, shard, index))
        workflow = None
        open_kinds = frozenset(KINDS) if share is None else frozenset(
            k for k in KINDS if kinds[k] < share[k])
        if draws is not None:
            drawn = draws.draw(rng, dead, open_kinds)
            if drawn is None:
                return  # every workflow is spent or has its share
            workflow, start = drawn
        else:
            start = rng.choice([item for item in starts if item not in dead])
        task_id = hashlib.sha256(f"{seed}:{shard}:{index}".encode()).hexdigest()[:16]
        made = compose_task(library, world_seed, start, rng, task_id, paraphrase=paraphrase,
                            style=walk_style(style, seed, shard, index), patterned=patterned,
                            config=config, workflow=workflow,
                            each=_asked("each", for_each, seed, shard, index),
                            jobs=_asked("jobs", jobs, seed, shard, index),
                            kinds=open_kinds)
        walked = time.perf_counter()
        if isinstance(made, Rejected):
            stale = stalled(start)  # (counted whatever the reason)
            if stale or made.reason == START_FAILED:
                dead.add(start)
            if workflow is not None:  # (drawn: `draws` is not None)
                draws.failed(workflow.name)
            yield Candidate(index, start, None, None, f"walk: {made.reason}", walked - began, 0)
            continue
        checks = verify_task(made, library, deduper)
        failed = [name for name in CHECKS if not checks[name]]
        judgement = kept = None
        if not failed and judge is not None:
            judgement = judge(made, derive_seed("judge", seed, shard, index) % (1 << 31))
            kept = keep(judgement, judge_threshold)
        if not failed and kept is not False:
            deduper.remember(made)
            verified, last = verified + 1, index
            spread.update(set(made.services))
            kinds[made.kind] += 1
            stalls[start] = 0
            if workflow is not None:  # (drawn: `draws` is not None)
                draws.verified(workflow.name)
        else:
            if stalled(start):
                dead.add(start)
            if workflow is not None:  # (drawn: `draws` is not None)
                draws.failed(workflow.name)
        outcome = ("rejected: " + ", ".join(failed) if failed
                   else JUDGED_OUT if kept is False else "verified")
        yield Candidate(index, start, made, checks, outcome, walked - began,
                        time.perf_counter() - walked, judgement, kept)


def _asked(what: str, share: float, seed: int, shard: int, index: int) -> bool:
    """Whether walk `index` of a shard is asked for `what` (its records chosen, a job), a
    `share` of the walks, each drawn by a seed of its own."""
    return share > 0 and random.Random(derive_seed(what, seed, shard, index)).random() < share


def service_cap(share: float, quota: int, apps: int) -> int | None:
    """The most verified tasks of a shard one app may take part in; None (no cap) where the
    library has too few apps to share its tasks so: a task takes two apps at least, so an
    app of a library of fewer than `2 / share` is in more than `share` of them on average."""
    if apps * share < 2:
        return None
    return max(1, math.floor(share * quota))


class Draws:
    """Which workflow, and which start tool, a shard's next patterned walk takes.

    Every workflow one of the shard's `starts` can begin is drawn with equal odds (not
    every start: a workflow many tools begin would crowd out one that few begin), until it
    has verified its share of the `quota` (`share`, at least one task; where fewer
    workflows than `1 / share` are still alive, an equal part of the quota each) or
    `STALE_AFTER` of its walks in a row verified nothing. Its start is drawn by how much
    its service is a business app (`ServiceLibrary.meaning`), each app's starts sharing
    its weight (an app with ten list tools would otherwise begin ten times as often), and
    an app already in `k` of the shard's verified tasks (`spread`) weighing 1 / (1 + k):
    a run draws on every app a workflow can begin in, not on the first that verified. An
    app in `cap` of them begins no more."""

    def __init__(self, library: ServiceLibrary, starts: list[str], quota: int,
                 share: float, spread: Counter[str] | None = None,
                 cap: int | None = None) -> None:
        self.library = library
        self.quota = quota
        self.share = share
        self.app_cap = cap
        self.spread: Counter[str] = spread if spread is not None else Counter()
        self.begins: dict[str, list[str]] = {}
        self.workflows: dict[str, Workflow] = {}
        for start in starts:
            for workflow in library.patterns_at(start):
                self.begins.setdefault(workflow.name, []).append(start)
                self.workflows[workflow.name] = workflow
        self.made: dict[str, int] = dict.fromkeys(self.begins, 0)
        self.stalls: dict[str, int] = dict.fromkeys(self.begins, 0)
        self.spent: set[str] = set()
        self._depth: dict[tuple[str, str], frozenset[str]] = {}  # (workflow, start) -> kinds

    def cap(self) -> int:
        """The most tasks one workflow may verify in this shard now."""
        alive = max(1, len(self.begins) - len(self.spent))
        return max(math.ceil(self.share * self.quota), math.ceil(self.quota / alive))

    def draw(self, rng: random.Random, dead: set[str], kinds: frozenset[str] = frozenset(KINDS)
             ) -> tuple[Workflow, str] | None:
        """The next workflow and start tool, or None when none is left. Where the shard
        makes no more errands (`kinds`), only a start from which the workflow can make
        one of `kinds` (`_deep`): the workflows that can only make errands would each
        spend `STALE_AFTER` walks before they were given up."""
        cap = self.cap()

        def fits(name: str, start: str) -> bool:
            return self._open(start, dead) and ("errand" in kinds or self._deep(
                name, start, kinds))
        names = sorted(name for name, starts in self.begins.items()
                       if name not in self.spent and self.made[name] < cap
                       and any(fits(name, start) for start in starts))
        if not names:
            return None
        name = rng.choice(names)
        starts = [start for start in self.begins[name] if fits(name, start)]
        apps = Counter(self.library.graph.nodes[s].service for s in starts)
        start = rng.choices(starts, weights=[  # each app alike, however many tools of it
            self.library.meaning(service) / apps[service] / (1 + self.spread[service])
            for service in (self.library.graph.nodes[s].service for s in starts)])[0]
        return self.workflows[name], start

    def _deep(self, name: str, start: str, kinds: frozenset[str]) -> bool:
        """Whether workflow `name` begun at `start` can make a task of `kinds` other than an
        errand: a workflow, where it names a rule to choose its records by; a job, where
        another workflow `start` begins may follow it."""
        key = (name, start)
        if key not in self._depth:
            workflow = self.workflows[name]
            rules = workflow_rules(workflow.operators)
            self._depth[key] = frozenset(
                (["workflow"] if rules.chooses else [])
                + (["job"] if self.library.followers(start, workflow) else []))
        return bool(self._depth[key] & kinds)

    def _open(self, start: str, dead: set[str]) -> bool:
        """Whether a start may begin a walk: alive, in an app below its cap."""
        return start not in dead and (self.app_cap is None or self.spread[
            self.library.graph.nodes[start].service] < self.app_cap)

    def verified(self, name: str) -> None:
        """Workflow `name` made a verified task."""
        self.made[name] += 1
        self.stalls[name] = 0

    def failed(self, name: str) -> None:
        """A walk of workflow `name` verified nothing."""
        self.stalls[name] += 1
        if self.stalls[name] >= STALE_AFTER:
            self.spent.add(name)


def paraphraser(endpoint: dict[str, str] | None) -> Paraphrase | None:
    """An LLM paraphraser for `{"base_url", "model"}` (None: keep the template text)."""
    if not endpoint:
        return None
    from compoworld.llm import LLMClient

    client = LLMClient(endpoint["base_url"], endpoint["model"])

    def paraphrase(text: str, visible: list[Any], hidden: list[Any], seed: int):
        return paraphrase_instruction(text, visible, hidden, client, seed=seed)

    return paraphrase


def check_compose_options(
    *, worlds: int, paraphrase_url: str | None, paraphrase_model: str | None,
    judge_url: str | None, judge_model: str | None, judge_threshold: float,
    instruction_style: str, edge_threshold: float, walks: str = DEFAULT_WALKS,
    mix: str = DEFAULT_MIX, flags: bool = False,
) -> None:
    """Raise ValueError, naming the option, for compose options that cannot work: checked
    before anything runs, by the flow and (`flags`: named as `--judge-url`) by the
    `compose` and `regenerate` commands."""

    def name(parameter: str) -> str:
        return "--" + parameter.replace("_", "-") if flags else parameter

    if worlds < 1:
        raise ValueError(f"{name('worlds')} must be at least 1, got {worlds}")
    endpoints = {"paraphrase": (paraphrase_url, paraphrase_model),
                 "judge": (judge_url, judge_model)}
    for kind, (url, model) in endpoints.items():
        if bool(url) != bool(model):
            raise ValueError(f"give both {name(kind + '_url')} and {name(kind + '_model')}, "
                             "or neither")
    if not 1 <= judge_threshold <= 5:
        raise ValueError(f"{name('judge_threshold')} must be within 1-5 (the ratings' scale), "
                         f"got {judge_threshold:g}")
    if instruction_style not in INSTRUCTION_STYLES:
        raise ValueError(f"{name('instruction_style')} must be one of "
                         f"{', '.join(INSTRUCTION_STYLES)}, got {instruction_style!r}")
    if walks not in WALKS:
        raise ValueError(f"{name('walks')} must be one of {', '.join(WALKS)}, got {walks!r}")
    if not 0 <= edge_threshold <= 1:
        raise ValueError(f"{name('edge_threshold')} must be within 0-1 (an edge score), got "
                         f"{edge_threshold:g}")
    try:
        parse_mix(mix)
    except ValueError as error:
        raise ValueError(f"{name('mix')}: {str(error).removeprefix('mix: ')}") from None


def task_judge(endpoint: dict[str, Any] | None, library: ServiceLibrary) -> Judge | None:
    """An LLM judge for `{"base_url", "model", ...}` (None: tasks are not judged)."""
    if not endpoint:
        return None
    from compoworld.llm import LLMClient

    client = LLMClient(endpoint["base_url"], endpoint["model"])
    titles = {name: info.title for name, info in library.infos.items()}

    def judge(task: Task, seed: int) -> Judgement:
        return judge_task(task, client, seed=seed, titles=titles)

    return judge


def compose_shard(shard: Shard, store: Any) -> dict[str, list[dict[str, Any]]]:
    """The `compose` stage: walk from the shard's start tools until its quota of verified
    tasks is met or `CANDIDATES_PER_TASK` walks per task were tried (`params`: `worlds`,
    `instruction_style`, `for_each`, `jobs`, `mix`, and the optional `paraphrase` and `judge`
    endpoints)."""
    seed = shard.params["seed"]
    first = shard.params.get("first", 0)  # (a top-up wave's quotas split its own tasks)
    quota = shard_quota(shard.params["tasks"], shard.index - first, shard.count - first)
    library = ServiceLibrary.from_store(store, shard.run_id)
    library.use_workflows(run_workflows(bool(shard.params.get("trial_workflows"))))
    world_seed = shard_world_seed(seed, shard_world(shard))
    judging = shard.params.get("judge") or {}
    tasks: list[dict[str, Any]] = []
    walks: list[dict[str, Any]] = []
    for made in candidates(library, shard.items, seed=seed, shard=shard.index,
                           world_seed=world_seed, quota=quota,
                           limit=quota * CANDIDATES_PER_TASK,
                           paraphrase=paraphraser(shard.params.get("paraphrase")),
                           style=shard.params.get("instruction_style", "goal"),
                           judge=task_judge(judging, library),
                           judge_threshold=judging.get("threshold", DEFAULT_THRESHOLD),
                           patterned=shard.params.get("walks", DEFAULT_WALKS) == "pattern",
                           edge_threshold=shard.params.get("edge_threshold", EDGE_THRESHOLD),
                           workflow_share=shard.params.get("workflow_share", WORKFLOW_SHARE),
                           service_share=shard.params.get("service_share", SERVICE_SHARE),
                           for_each=shard.params.get("for_each", FOR_EACH),
                           jobs=shard.params.get("jobs", JOBS),
                           mix=shard.params.get("mix", DEFAULT_MIX)):
        seconds = made.walk_seconds + made.verify_seconds
        if made.task is not None and made.checks is not None:
            tasks.append(task_row(made.task, made.checks, made.start, seconds,
                                  judgement=made.judgement, kept=made.kept))
        walks.append({"walk": made.index, "shard": shard.index, "start_tool": made.start,
                      "task_id": made.task.task_id if made.task else None,
                      "outcome": made.outcome, "seconds": round(seconds, 5)})
    if not world_shared(shard):  # no other shard walks this world: its templates go now
        forget_world(world_seed)
    return {"tasks": tasks, "walks": walks}


def world_shared(shard: Shard) -> bool:
    """Whether another shard of the compose plan walks `shard`'s world (shard `i` composes
    in world `i % worlds`, a top-up's in a world of its own): only then may a later shard in
    this process reuse its mounted services. By default each shard is a world of its own
    (`DEFAULT_WORLDS`)."""
    if shard.params.get("first"):
        return False
    worlds = shard.params.get("worlds", 1)
    return shard.index >= worlds or shard.index + worlds < shard.count


def task_row(
    task: Task, checks: dict[str, bool], start: str, seconds: float, *,
    judgement: Judgement | None = None, kept: bool | None = None,
) -> dict[str, Any]:
    """One `tasks` row: lists as lists, records as JSON, each check a column, and the
    judge's ratings (null when not judged). `verified` is every check passed and the judge
    not dropping the task (`judged_kept` false), so every reader of verified tasks
    (rollouts, export, stats) skips a judged-out one without knowing of the judge."""
    dump = task.model_dump(mode="json")
    as_json = ("visible_values", "hidden_values", "gold_calls", "answer", "rubric",
               "world_patch")
    return (
        {key: dump[key] for key in ("task_id", "services", "distractors", "world_seed",
                                    "instruction", "capabilities", "step_budget", "signature",
                                    "pattern", "domain", "instruction_style", "operators",
                                    "kind", "hops", "difficulty")}
        | {key: json_text(dump[key]) for key in as_json}
        | {"start_tool": start, "n_calls": len(task.gold_calls),
           "n_services": len(set(task.services)), "n_criteria": len(task.rubric),
           "verified": all(checks.values()) and kept is not False,
           "seconds": round(seconds, 5)}
        | checks
        | {"judge_realism": judgement.realism if judgement else None,
           "judge_link_sense": judgement.link_sense if judgement else None,
           "judge_reason": judgement.reason if judgement else None,
           "judge_error": judgement.error if judgement else None,
           "judged_kept": kept}
    )


def task_from_row(row: dict[str, Any]) -> Task:
    """The `Task` a `tasks` row holds (what rollouts and re-verification read back)."""
    fields = {key: row[key] for key in Task.model_fields if key in row}
    for key in ("visible_values", "hidden_values", "gold_calls", "answer", "rubric",
                "world_patch"):
        if row.get(key) is not None:  # (a run composed before patches holds none)
            fields[key] = orjson.loads(row[key])
    return Task.model_validate(fields)


def plan_compose(
    graph: DependencyGraph, *, run_id: str, tasks: int, seed: int, tasks_per_shard: int,
    params: dict[str, Any], first: int = 0, starts: list[str] | None = None,
    library: ServiceLibrary | None = None,
) -> list[Shard]:
    """Compose shards: the seeded start tools split so each shard makes about
    `tasks_per_shard` verified tasks (`params` adds what the input hash must cover). A
    later wave is numbered from `first`, each shard in a world of its own, and may walk
    from `starts` alone (the start tools earlier shards verified tasks, or that the run's
    `library` begins its workflows at: `planned_starts`). None begins a workflow: the
    error says why in one line (`unfit`)."""
    if tasks < 1:
        raise ValueError(f"tasks must be at least 1, got {tasks}")
    if tasks_per_shard < 1:
        raise ValueError(f"tasks_per_shard must be at least 1, got {tasks_per_shard}")
    patterned = params.get("walks", DEFAULT_WALKS) == "pattern"
    starts = order_starts(start_tools(graph, patterned=patterned) if starts is None
                          else starts, seed)
    if not starts:
        raise ValueError(f"run {run_id!r}: " + (unfit(graph, library) if patterned else
                                               "no mounted read tool to start a walk from"))
    count = -(-tasks // tasks_per_shard)
    worlds = min(params.get("worlds", 1), count)
    # shards of one world split the start tools (a chain made twice in one world is one
    # task twice); shards of different worlds each walk from all of them
    groups = min(len(starts), -(-count // worlds))
    count = min(count, worlds * groups)
    size = -(-len(starts) // groups)
    parts = [starts[i * size:(i + 1) * size] for i in range(groups)]
    return plan_chunks(
        run_id=run_id, stage="compose", chunks=[parts[i // worlds] for i in range(count)],
        params={"seed": seed, "tasks": tasks} | ({"first": first} if first else {}) | params,
        work="compoworld.compose.stage:compose_shard", first=first,
    )


def focus(shards: list[Shard], starts: list[str], seed: int) -> list[Shard]:
    """The same shards (indices, worlds, quotas) walking only from `starts`, the start tools
    that verified tasks in the shards before them; unchanged when `starts` is empty."""
    if not shards or not starts:
        return shards
    return plan_chunks(run_id=shards[0].run_id, stage=shards[0].stage,
                       chunks=[order_starts(starts, seed)] * len(shards),
                       params=shards[0].params, work=shards[0].work, first=shards[0].index)


def top_up(
    graph: DependencyGraph, planned: list[Shard], made: int, *, tasks: int, seed: int,
    tasks_per_shard: int, params: dict[str, Any], starts: list[str] | None = None,
) -> list[Shard]:
    """The next wave of shards for a run whose `planned` shards verified `made` of its
    `tasks`: as many shards, each in a world no shard has walked yet (`shard_world`) and
    with the full quota, as the shortfall needs at the rate the planned ones verified ([]
    when none is short). A shard verifies what its world's chains allow (~25 of a quota of
    40 on the default selection), so a run of quotas alone falls short. (A wave kept to
    worlds below `worlds` had, after 200 shards that verified 4,957 of 5,000, no world
    left for the last 43.)"""
    short, first = tasks - made, len(planned)
    if short <= 0 or not planned:
        return []
    rate = max(made / first, 1.0)  # verified per shard so far
    count = math.ceil(short / rate)
    return plan_compose(graph, run_id=planned[0].run_id, tasks=count * tasks_per_shard,
                        seed=seed, tasks_per_shard=tasks_per_shard, params=params, first=first,
                        starts=starts)
