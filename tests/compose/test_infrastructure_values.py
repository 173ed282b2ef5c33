"""Tasks composed over real services of the default selection never state an
infrastructure parameter (api key, api version, format, paging...): not as a visible value,
not as a hidden one, not by name or value in the instruction."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import candidates, order_starts, start_tools
from compoworld.compose.values import mentions
from compoworld.graph.semtypes import split_words
from compoworld.specs.infra import is_infrastructure
from compoworld.specs.sources import load_document

pytestmark = pytest.mark.slow

# Services of the default selection (compoworld/services/selection.py over the pinned
# corpus) whose tools require an api key (OpenFEC, Jumpseller), an api version (Azure) or
# an output format (BC router), beside small ones that tasks often join.
DOCUMENTS = ["fec.gov.json", "jumpseller.com.json", "gov.bc.ca/router.json",
             "azure.com/sql-firewallRules.json", "azure.com/automation-variable.json",
             "bhagavadgita.io.json", "dodo.ac.json", "link.fish.json",
             "citrixonline.com/gotomeeting.json", "learnifier.com.json"]


def leaks(task: Task, library: ServiceLibrary) -> list[str]:
    """How the task states an infrastructure parameter, if it does: a binding of one (a
    visible literal or a hidden value), its value in the visible values or in the
    instruction, or its name followed by a value in the instruction."""
    found = []
    text = task.instruction
    for call in task.gold_calls:
        tool = next(t for t in library.spec(call.service).tools if t.name == call.tool)
        for name, schema in tool.parameters.get("properties", {}).items():
            if not is_infrastructure(name, schema):
                continue
            words = " ".join(split_words(name))
            if re.search(rf"\b{re.escape(words)}\b (?:is |set to |to )?[\"\d]", text, re.I):
                found.append(f"{call.tool}: {name} named with a value in the instruction")
            if name not in call.arguments:
                continue
            value = call.arguments[name]
            if name in call.bindings:
                found.append(f"{call.tool}: {name} bound {call.bindings[name].kind}")
            if value in task.visible_values or mentions(text, value):
                found.append(f"{call.tool}: {name}={value!r} stated")
    return found


@pytest.fixture(scope="module")
def library(corpus: Path) -> ServiceLibrary:
    return ServiceLibrary.from_specs([load_document(corpus, doc) for doc in DOCUMENTS], seed=5)


@pytest.fixture(scope="module")
def tasks(library: ServiceLibrary) -> list[Task]:
    made = []
    for shard in range(2):
        starts = order_starts(start_tools(library.graph), shard)
        made += [c.task for c in candidates(library, starts, seed=0, shard=shard, world_seed=5,
                                            quota=10, limit=80) if c.task is not None]
    return made


def test_the_sample_reaches_tools_with_infrastructure_parameters(tasks: list[Task],
                                                                 library: ServiceLibrary):
    """The check below means something: composed tasks call tools that take them."""
    def takes_infra(task: Task) -> bool:
        return any(is_infrastructure(name, schema)
                   for call in task.gold_calls
                   for tool in library.spec(call.service).tools if tool.name == call.tool
                   for name, schema in tool.parameters.get("properties", {}).items())

    assert len(tasks) >= 10
    assert sum(takes_infra(t) for t in tasks) >= len(tasks) // 3


def test_no_task_states_an_infrastructure_parameter(tasks: list[Task], library: ServiceLibrary):
    stated = {task.task_id: leaks(task, library) for task in tasks}
    assert {k: v for k, v in stated.items() if v} == {}


def test_required_infrastructure_is_filled_by_the_environment(tasks: list[Task],
                                                              library: ServiceLibrary):
    """Ingest leaves every infrastructure parameter optional with the default the
    environment fills (specs/infra.py `relax_infrastructure`), so a gold call never binds
    one and the instruction never mentions it."""
    seen = 0
    for service in sorted({call.service for task in tasks for call in task.gold_calls}):
        for tool in library.spec(service).tools:
            props = tool.parameters.get("properties", {})
            infra = {name for name in props if is_infrastructure(name, props[name])}
            seen += len(infra)
            assert not infra & set(tool.parameters.get("required", [])), tool.name
    for task in tasks:
        for call in task.gold_calls:
            tool = next(t for t in library.spec(call.service).tools if t.name == call.tool)
            props = tool.parameters.get("properties", {})
            assert not [n for n in call.bindings if is_infrastructure(n, props.get(n))]
    assert seen > 0
