"""Goal-style instructions over real composed tasks: they state the goal and the facts the
user knows, never the steps or the tools, and keep every visible value and no hidden one."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from compoworld.compose.build import compose_task
from compoworld.compose.instruction import (
    INSTRUCTION_STYLES,
    hidden_values,
    render_value,
    resolve_style,
    visible_values,
    write_instruction,
)
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.naming import record_noun, tool_words
from compoworld.compose.records import Task
from compoworld.compose.stage import order_starts, start_tools
from compoworld.compose.values import mentions
from compoworld.graph.semtypes import split_words
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec
from compoworld.specs.sources import load_document

WORLD_SEED = 7
# Connectors that dictate an order: `First, ...`, `... Then ...`, `and then`, `step 2`.
STEP_WORDS = re.compile(r"(^|[.;:!?]\s+)(First|Then|Next|Finally|Lastly|After that|To start)\b"
                        r"|\b(and then|, then|step \d)\b", re.IGNORECASE)
NUMBERED = re.compile(r"(^|\n)\s*\d+[.)]\s")


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


@pytest.fixture(scope="module")
def tasks(library: ServiceLibrary) -> list[Task]:
    """Composed built-in tasks (walk seeds in order, every start tool)."""
    made = []
    starts = sorted(start_tools(library.graph))
    for index in range(600):
        task = compose_task(library, WORLD_SEED, starts[index % len(starts)],
                            random.Random(index), f"t{index}")
        if isinstance(task, Task):
            made.append(task)
        if len(made) == 40:
            break
    assert len(made) >= 20
    return made


def goal(task: Task, library: ServiceLibrary, seed: int, **kwargs) -> str:
    titles = {name: library.infos[name].title for name in task.services}
    resources = {c.tool: library.graph.nodes[c.tool].resource for c in task.gold_calls}
    return write_instruction(task.gold_calls, task.answer, titles, random.Random(seed),
                             resources=resources, **{"style": "goal", **kwargs})


def tool_phrases(tool: str) -> list[str]:
    """How a tool's name could leak into text: its id, its name, its words in either order."""
    name = tool.rsplit("__", 1)[-1]
    words = [w for w in split_words(name) if not w.isdigit()]
    phrases = [tool.lower(), name.lower()]
    if len(words) >= 2:
        phrases += [" ".join(words), " ".join(reversed(words))]
    return phrases


def prose(text: str, calls, answer) -> str:
    """The instruction's own words: the visible values (a message body may well say "next
    Tuesday") cut out."""
    for value in sorted((render_value(v) for v in visible_values(calls, answer)),
                        key=len, reverse=True):
        text = text.replace(value, "<value>")
    return text


def check_goal(text: str, task_calls, answer) -> None:
    own = prose(text, task_calls, answer)
    assert not STEP_WORDS.search(own), text
    assert not NUMBERED.search(own), text
    assert "house rules" not in own.lower() and "I run support" not in own, text
    for call in task_calls:
        for phrase in tool_phrases(call.tool):
            assert phrase not in own.lower(), (phrase, text)
    for value in visible_values(task_calls, answer):
        assert render_value(value) in text, (value, text)
    stated = [render_value(v) for v in visible_values(task_calls, answer)]
    for value in hidden_values(task_calls, answer):
        # a hidden first name inside a visible email is the walk's leak (verify rejects it)
        if not any(mentions(v, value) for v in stated):
            assert not mentions(text, value), (value, text)


def test_goal_states_the_goal_not_the_steps(tasks: list[Task], library: ServiceLibrary):
    for index, task in enumerate(tasks):
        check_goal(goal(task, library, index), task.gold_calls, task.answer)


def test_reads_are_references_not_actions(tasks: list[Task], library: ServiceLibrary):
    """A read tool's own verb phrase (`list channels`, `search contacts`) never appears, and
    a task with a write never opens with a look-up."""
    for index, task in enumerate(tasks):
        text = goal(task, library, index).lower()
        for call in task.gold_calls:
            verb, noun = tool_words(call.tool, call.effect)
            if call.effect == "read" and verb and noun:
                assert f"{verb} the {' '.join(noun)}" not in text, text
        if any(c.effect != "read" for c in task.gold_calls):
            assert not text.startswith(("look up", "find", "search", "list")), text


def test_each_answer_item_names_its_record(tasks: list[Task], library: ServiceLibrary):
    asked = [t for t in tasks if t.answer]
    assert asked
    for index, task in enumerate(asked):
        text = goal(task, library, index)
        for item in task.answer:
            label = item.label.removeprefix("the ")
            assert re.search(rf"the {re.escape(label)} (of|for) the ", text) \
                or f"'s {label}" in text or "time" in text, (label, text)


def test_same_seed_same_text_other_seeds_vary(tasks: list[Task], library: ServiceLibrary):
    task = max(tasks, key=lambda t: len(t.gold_calls))
    assert goal(task, library, 3) == goal(task, library, 3)
    assert len({goal(task, library, seed) for seed in range(20)}) >= 4


def test_steps_style_still_dictates(tasks: list[Task], library: ServiceLibrary):
    titles = {name: info.title for name, info in library.infos.items()}
    long = [t for t in tasks if len(t.gold_calls) >= 2]
    for index, task in enumerate(long):
        steps = write_instruction(task.gold_calls, task.answer, titles, random.Random(index),
                                  style="steps")
        own = prose(steps, task.gold_calls, task.answer)
        assert STEP_WORDS.search(own) or NUMBERED.search(own), steps
        assert steps != goal(task, library, index)


def test_mixed_writes_both_styles_and_unknown_styles_fail(tasks: list[Task],
                                                          library: ServiceLibrary):
    assert INSTRUCTION_STYLES == ("goal", "steps", "mixed")
    drawn = [resolve_style("mixed", random.Random(seed)) for seed in range(200)]
    assert 70 <= drawn.count("goal") <= 130 and set(drawn) == {"goal", "steps"}
    task = tasks[0]
    texts = {goal(task, library, seed, style="mixed") for seed in range(30)}
    assert any(STEP_WORDS.search(t) or NUMBERED.search(t) for t in texts)
    assert any(not (STEP_WORDS.search(t) or NUMBERED.search(t)) for t in texts)
    with pytest.raises(ValueError, match="goal, steps, mixed"):
        goal(task, library, 0, style="numbered")


def test_purpose_opens_the_request_when_given(tasks: list[Task], library: ServiceLibrary):
    task = tasks[0]
    texts = [goal(task, library, seed, purpose="welcome a new lead") for seed in range(10)]
    assert all("welcome a new lead" in t for t in texts)
    assert all("welcome a new lead" not in goal(task, library, seed) for seed in range(10))


@pytest.mark.parametrize("tool, effect, resource, noun", [
    ("api__contacts_one", "read", None, "contact"),
    ("api__users_all", "read", None, "user"),
    ("api__expense_get", "read", None, "expense"),
    ("api__url_browser_data", "read", None, "url browser"),
    ("api__get_v1_customers_customer", "read", None, "customer"),
    ("ably__register_push_device", "create", "device_registrations", "device registration"),
    ("api__get_all", "read", None, "record"),
])
def test_records_are_named_as_a_person_would(tool: str, effect: str, resource: str | None,
                                             noun: str):
    assert record_noun(tool, effect, resource) == noun


@pytest.mark.slow
def test_goal_over_real_corpus_tasks(corpus: Path):
    """Real OpenAPI documents (the names and resources of real services) read as a goal."""
    docs = ["amazonaws.com/serverlessrepo.json", "dodo.ac.json", "gov.bc.ca/news.json",
            "link.fish.json", "citrixonline.com/gotomeeting.json", "learnifier.com.json",
            "climate.com.json", "mercedes-benz.com/image.json"]
    library = ServiceLibrary.from_specs([load_document(corpus, d) for d in docs], seed=5)
    starts = order_starts(start_tools(library.graph), 0)
    made = [t for i in range(150) if isinstance(
        t := compose_task(library, 5, starts[i % len(starts)], random.Random(i), f"r{i}"), Task)]
    assert len(made) >= 10
    for index, task in enumerate(made):
        check_goal(goal(task, library, index), task.gold_calls, task.answer)
