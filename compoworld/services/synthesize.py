"""Synthesize one service: compile it, seed its world, verify every tool, mount what passes.

The `synthesize` stage's work function. For each service spec of the shard:

1. compile it: compiled REST handlers; modeled tools (services/modeled.py: record operations
   inferred from names and schemas, actions logged) over the same typed state; the rest,
   pure lookups, simulated (stateless) by the offline world model, each with its reason;
2. seed its start state from the world seed (shared pool first, then its collections);
3. run every verification check; a compiled write that fails is rebuilt as a modeled
   action (it still leaves an event); a failing read of a collection the state holds is
   not mounted (a stateless answer would contradict the records); any other failing
   compiled or modeled tool is rebuilt as `simulated`
   and checked again, and recorded so;
4. mount the tools that pass; the service is verified when at least one tool is mounted.

A large API the selection mounts as a working subset (services/selection.py) is built from
its spec narrowed to that subset; its other tools get build rows that say they are outside
the subset, and its `services` row records the subset and the selection's reason. (The
hand-written built-ins are small and always built whole.)

A service whose spec cannot be compiled or seeded (self-referential, contradictory or
huge schemas) is recorded as not verified with the reason; it never stops the shard.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import orjson

from compoworld.graph.semtypes import entity_id_type
from compoworld.services.builtin import build_builtin, example_state
from compoworld.services.compiler import action_tool, compile_report, compile_service
from compoworld.services.runtime import Service, Tool
from compoworld.services.sandbox import source_hash
from compoworld.services.selection import narrowed_spec, subset_tools
from compoworld.services.verify import CheckResult, check_tool, failed_tools, verify_service
from compoworld.shards import Shard
from compoworld.specs.records import ServiceSpec
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool, seed_state
from compoworld.world.seeds import world_seed
from compoworld.worldmodel.offline import OfflineWorldModel


def value_for(schema: dict[str, Any], rng: random.Random, name: str) -> Any:
    """Argument values for verification: realistic values valid against `schema`."""
    return value_from_schema(schema, rng, name=name)


def build_service(spec: ServiceSpec, seed: int) -> tuple[Service, dict[str, str], Any]:
    """Compile (or, for a built-in, instantiate) and seed a service.

    Returns the service, why each non-compiled tool is what it is, and its world model.
    Key parameters the compiler resolved to a collection (`creditAccountId` -> accounts)
    get that collection's id type, so verification and the graph treat them as ids.
    """
    pool = draw_pool(seed)
    model = OfflineWorldModel(seed, pool)
    if spec.source.startswith("builtin:"):
        name = spec.source.removeprefix("builtin:")
        return build_builtin(name, example_state(name, seed)), {}, model
    service = compile_service(spec, simulate=model.handler_for, respond=model.respond)
    reasons = {}
    for name, decision in compile_report(spec).items():
        tool = service.tools[name]
        if decision.implementation != "compiled":
            reasons[name] = f"{decision.code}: {decision.reason}"
        keyed = {p: entity_id_type(spec.name, c) for p, c in decision.keys}
        if keyed:
            types = tool.spec.param_types | keyed
            tool.spec = tool.spec.model_copy(update={"param_types": types})
    service.state = seed_state(service.spec, seed, pool)
    return service, reasons, model


MAX_TOOLS = 2000


Verified = tuple[Service, dict[str, str], list[tuple[str, CheckResult]], dict[str, str], str]


def verify_built(spec: ServiceSpec, seed: int) -> Verified:
    """Build, seed and verify a service, with the fallbacks of the module docstring.

    Returns the service, why each tool is what it is, the check results with the
    implementation each ran under, the failures (tool -> first failed check: the tools
    not mounted) and the start state's digest.
    """
    service, reasons, model = build_service(spec, seed)
    start_digest = service.state.digest()
    first = verify_service(service, seed, value_for)
    results = [(service.tools[r.tool].implementation, r) for r in first]
    failures = failed_tools(first)
    for name in sorted(failures):
        if service.tools[name].implementation not in ("compiled", "modeled"):
            continue
        spec_of, was = service.tools[name].spec, service.tools[name].implementation
        if spec_of.effect == "read" and spec_of.resource in service.state.schemas:
            # a stateless answer would contradict the records its collection holds
            reasons[name] = (f"{was} failed {failures[name]}; not mounted: a stateless "
                             f"read of `{spec_of.resource}` would contradict its records")
            continue
        if was == "compiled" and spec_of.effect != "read":
            service.tools[name] = action_tool(service.spec, spec_of, model.respond)
            reasons[name] = f"compiled failed {failures.pop(name)}; modeled as an action"
        else:
            service.tools[name] = Tool(spec_of, "simulated", model.handler_for(spec_of))
            reasons[name] = f"{was} failed {failures.pop(name)}"
        again = check_tool(service, service.state, name, seed, value_for)
        results.extend((service.tools[name].implementation, result) for result in again)
        failures.update(failed_tools(again))
    return service, reasons, results, failures, start_digest


def synthesize_service(spec: ServiceSpec, seed: int, coder: dict[str, Any] | None = None,
                       selected: dict[str, Any] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Rows of `services`, `tool_builds` and `tool_checks` (and, with a `coder`, of
    `tool_codings`) for one service.

    `selected` is the selection's word on it: `tools`, the working subset to build (absent
    or None: every tool), and `reason`. Services over `MAX_TOOLS` tools to build (Microsoft
    Graph's 11k and 22k, Autotask's 3k) are skipped with that reason: verifying one would
    hold a worker for most of an hour. `coder` (`base_url`, `model`, `attempts`, ...: see
    `coder_stage.code_simulated`) sends the tools left simulated to the coding agent;
    accepted handlers become `coded`.
    """
    started = time.perf_counter()
    selected = selected or {}
    subset = selected.get("tools")
    keep = set(subset) if subset is not None else None
    left = [t.name for t in spec.tools if keep is not None and t.name not in keep]
    spec = narrowed_spec(spec, subset)
    recorded = {"tool_subset": sorted(subset) if subset is not None else None,
                "selection_reason": selected.get("reason")}
    tables = _synthesize(spec, seed, coder, started)
    tables["services"] = [row | recorded for row in tables["services"]]
    tables["tool_builds"] += [
        {"service": spec.name, "name": name, "implementation": None, "mounted": False,
         "reason": "outside the working subset the selection mounts", "checks_passed": 0,
         "checks_failed": 0, "param_types": None}
        for name in left
    ]
    return tables


def _synthesize(spec: ServiceSpec, seed: int, coder: dict[str, Any] | None, started: float
                ) -> dict[str, list[dict[str, Any]]]:
    if len(spec.tools) > MAX_TOOLS:
        reason = f"too large: {len(spec.tools)} tools, over the {MAX_TOOLS}-tool budget"
        return _unbuildable(spec, seed, reason, started)
    try:
        verified = verify_built(spec, seed)
        service, reasons, results, failures, start_digest = verified
    except Exception as error:  # noqa: BLE001 - one bad spec is a recorded reason, not a crash
        return _unbuildable(spec, seed, f"{type(error).__name__}: {error}", started)
    codings: list[dict[str, Any]] = []
    if coder:
        from compoworld.services.coder_stage import code_simulated

        codings = code_simulated(service, coder, seed, reasons, results, failures)
    tables = _rows(spec, seed, service, reasons, results, failures, start_digest, started)
    return tables | {"tool_codings": codings}


def _rows(
    spec: ServiceSpec,
    seed: int,
    service: Service,
    reasons: dict[str, str],
    results: list[tuple[str, CheckResult]],
    failures: dict[str, str],
    start_digest: str,
    started: float,
) -> dict[str, list[dict[str, Any]]]:
    final = {name: tool.implementation for name, tool in service.tools.items()}
    checks = [
        {
            "service": spec.name,
            "tool": result.tool,
            "implementation": implementation,
            "check": result.check,
            "passed": result.passed,
            "detail": result.detail,
        }
        for implementation, result in results
    ]
    passed: dict[str, int] = {}
    failed: dict[str, int] = {}
    for row in checks:
        if row["implementation"] == final[row["tool"]]:
            bucket = passed if row["passed"] else failed
            bucket[row["tool"]] = bucket.get(row["tool"], 0) + 1
    builds = [
        {
            "service": spec.name,
            "name": name,
            "implementation": final[name],
            "mounted": name not in failures,
            "reason": failures.get(name) or reasons.get(name),
            "checks_passed": passed.get(name, 0),
            "checks_failed": failed.get(name, 0),
            "param_types": orjson.dumps(service.tools[name].spec.param_types).decode(),
        } | coded_source(service.tools[name])
        for name in sorted(service.tools)
    ]
    counts = Counter(final.values())
    mounted = sum(1 for b in builds if b["mounted"])
    return {
        "services": [
            _service_row(spec, seed, started)
            | {
                "verified": mounted > 0,
                "reason": None if mounted else "no tool passed verification",
                "n_mounted": mounted,
                "n_compiled": counts.get("compiled", 0),
                "n_modeled": counts.get("modeled", 0),
                "n_simulated": counts.get("simulated", 0),
                "n_builtin": counts.get("builtin", 0),
                "n_coded": counts.get("coded", 0),
                "start_digest": start_digest,
            }
        ],
        "tool_builds": builds,
        "tool_checks": checks,
    }


def coded_source(tool: Tool) -> dict[str, str | None]:
    """A `tool_builds` row's `source` and `source_hash`: set for coded tools only."""
    source = getattr(tool.handler, "source", None) if tool.implementation == "coded" else None
    if source is None:
        return {"source": None, "source_hash": None}
    return {"source": source, "source_hash": source_hash(source)}


def _service_row(spec: ServiceSpec, seed: int, started: float) -> dict[str, Any]:
    return {
        "service": spec.name,
        "title": spec.title,
        "domain": spec.domain,
        "source": spec.source,
        "world_seed": seed,
        "n_tools": len(spec.tools),
        "seconds": round(time.perf_counter() - started, 4),
    }


def _unbuildable(
    spec: ServiceSpec, seed: int, reason: str, started: float
) -> dict[str, list[dict[str, Any]]]:
    reason = " ".join(reason.split())[:500]
    return {
        "services": [
            _service_row(spec, seed, started)
            | {"verified": False, "reason": reason, "n_mounted": 0, "n_compiled": 0,
               "n_modeled": 0, "n_simulated": 0, "n_builtin": 0, "n_coded": 0, "start_digest": None}
        ],
        "tool_builds": [
            {"service": spec.name, "name": tool.name, "implementation": None, "mounted": False,
             "reason": reason, "checks_passed": 0, "checks_failed": 0, "param_types": None}
            for tool in spec.tools
        ],
        "tool_checks": [],
    }


def synthesize_shard(shard: Shard, store: Any) -> dict[str, list[dict[str, Any]]]:
    """The stage's work function: synthesize every service named by the shard, each as the
    shard's `selection` parameter says (service -> `reason` and, for a working subset, `at`:
    services/selection.py `shards_with_selection`)."""
    rows = store.read(
        "specs", shard.run_id, columns=["service", "spec"], where=("service", shard.items)
    )
    tables: dict[str, list[dict[str, Any]]] = {
        "services": [], "tool_builds": [], "tool_checks": [], "tool_codings": []}
    for row in sorted(rows, key=lambda r: r["service"]):
        spec = ServiceSpec.model_validate_json(row["spec"])
        told = shard.params.get("selection", {}).get(spec.name, {})
        selected = {"reason": told.get("reason"), "tools": subset_tools(spec, told.get("at"))}
        built = synthesize_service(spec, world_seed(shard.params["seed"], spec.name),
                                   shard.params.get("coder"), selected)
        for table, records in built.items():
            tables[table].extend(records)
    return tables
