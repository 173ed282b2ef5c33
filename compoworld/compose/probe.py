"""Probing workflows on a run's library: which of them can be composed, and why not.

`probe_workflows` tries each workflow a few times over a library, outside the compose
stage (no Prefect, nothing written): how many start tools begin it, how many of its walks
made verified tasks, over which apps, and the commonest reasons the others failed. It is
what a person writing a workflow definition runs to see it work on their tools
(`compoworld workflows --probe N`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from compoworld.compose.build import Rejected, compose_task
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import start_tools
from compoworld.compose.verify import CHECKS, Deduper, verify_task
from compoworld.compose.workflow import Workflow
from compoworld.world.seeds import derive_seed


@dataclass(slots=True)
class Probe:
    """What the probe of one workflow found."""

    workflow: str
    domain: str
    starts: int  # start tools of the library that begin it
    walks: int = 0
    verified: int = 0
    apps: Counter[str] = field(default_factory=Counter)  # services of its verified tasks
    failures: Counter[str] = field(default_factory=Counter)
    samples: list[Task] = field(default_factory=list)  # its first verified tasks

    def reason(self) -> str:
        """The commonest failure, or why it was never walked."""
        if not self.starts:
            return "no start tool of the library begins it"
        return self.failures.most_common(1)[0][0] if self.failures else ""


def probe_workflows(library: ServiceLibrary, workflows: list[Workflow], *, walks: int,
                    seed: int = 0, worlds: int = 3, keep: int = 0) -> list[Probe]:
    """Up to `walks` walks of each workflow, from the start tools that begin it, in
    `worlds` seeded worlds (each verified task is also checked as the verifier does),
    keeping its first `keep` verified tasks to read."""
    library.use_workflows(tuple(workflows))  # (on trial or not: probing is how one matures)
    starts = start_tools(library.graph, patterned=True)
    begins = {s: library.patterns_at(s) for s in starts}
    probes = []
    for workflow in workflows:
        own = [s for s in starts if workflow in begins[s]]
        probe = Probe(workflow.name, workflow.domain, len(own))
        deduper = Deduper()
        for index in range(walks if own else 0):
            rng = random.Random(derive_seed("probe", seed, workflow.name, index))
            world = derive_seed("probe-world", seed, index % worlds) % (1 << 48)
            made = compose_task(library, world, rng.choice(own), rng, f"probe{index}",
                                patterned=True, workflow=workflow)
            probe.walks += 1
            if isinstance(made, Rejected):
                probe.failures[_short(made.reason)] += 1
                continue
            checks = verify_task(made, library, deduper)
            failed = [name for name in CHECKS if not checks[name]]
            if failed:
                probe.failures["rejected: " + ", ".join(failed)] += 1
                continue
            deduper.remember(made)
            probe.verified += 1
            probe.apps.update(set(made.services))
            if len(probe.samples) < keep:
                probe.samples.append(made)
        probes.append(probe)
    return probes


def _short(reason: str) -> str:
    """A rejection reason without the workflow's own name (`pattern x: no tool for step
    2` -> `no tool for step 2`), so that reasons count across workflows."""
    return reason.split(": ", 1)[1] if reason.startswith("pattern ") else reason
