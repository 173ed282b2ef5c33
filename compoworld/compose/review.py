"""Review packs: a random sample of a run's verified tasks, written for a person to read.

The measure of a task is whether a reviewer would put it in a training set, so a run's
tasks are read the way its users read them: the services with what they are for, the
request, the gold calls with what they returned, the expected answer and the checks. A
pack is Markdown, its sample drawn with a seed (a new seed, a new sample), each call's
arguments and result cut at a stated length so forty tasks stay readable.
"""

from __future__ import annotations

import random
from typing import Any

import orjson

from compoworld.compose.naming import app_name
from compoworld.world.clock import NOW_TEXT

ARGUMENTS_CUT = 400
RESULT_CUT = 600
DESCRIPTION_CUT = 300


def _cut(value: Any, limit: int) -> str:
    text = value if isinstance(value, str) else orjson.dumps(value).decode()
    return text if len(text) <= limit else text[:limit] + "…(cut)"


def sample_ids(task_ids: list[str], count: int, seed: int) -> list[str]:
    """`count` of `task_ids` (all, when fewer), drawn with `seed`, in a stable order."""
    ids = sorted(task_ids)
    return random.Random(seed).sample(ids, min(count, len(ids)))


def render_task(number: int, task: dict[str, Any], services: dict[str, dict[str, str]]) -> str:
    """One task of a pack: `task` a `tasks` row (JSON columns decoded), `services` each
    service's title, domain and description."""
    lines = [f"## Task {number}", "", "Services:"]
    for name in task["services"]:
        info = services.get(name, {})
        title = info.get("title") or name
        app = app_name(name, title)  # as the request names it ("Codat Accounting")
        label = title if app == title else f"{app} ({title})"
        lines.append(f"- {label} ({info.get('domain') or 'unknown'}): "
                     f"{_cut(info.get('description') or '', DESCRIPTION_CUT)}")
    lines += ["", "Request:", "", "> " + task["instruction"].replace("\n", "\n> "), "",
              "Gold calls:"]
    for i, call in enumerate(task["gold_calls"], 1):
        lines.append(f"{i}. `{call['tool']}` ({call['effect']}) "
                     f"arguments {_cut(call['arguments'], ARGUMENTS_CUT)}")
        lines.append(f"   result {_cut(call['result'], RESULT_CUT)}")
    answer = [f"{item['label']}: {_cut(item['value'], 200)}" for item in task["answer"]]
    lines += ["", "Expected answer: " + ("; ".join(answer) if answer else "(none)"), "",
              "Checks:"]
    lines += [f"- {criterion['description']}" for criterion in task["rubric"]]
    return "\n".join(lines) + "\n"


def render_pack(tasks: list[dict[str, Any]], services: dict[str, dict[str, str]],
                seed: int) -> str:
    """A whole pack: a header saying how it was drawn, then each task."""
    head = (f"# Review pack (seed {seed}, {len(tasks)} tasks)\n\nArguments are cut at "
            f"{ARGUMENTS_CUT} characters and results at {RESULT_CUT}; a cut is no defect of "
            f"the task. The agent is told the current date and time, {NOW_TEXT}, as every "
            "task's world holds it (what is \"still ahead\" or \"overdue\" is by it).\n")
    return "\n".join([head, *(render_task(i, t, services) for i, t in enumerate(tasks, 1))])
