"""The coding agent: turns a service's `simulated` tools into `coded` ones.

For one tool, a model is shown the tool's spec, the service's collections, the typed-state
API, the sandbox rules and real example handlers, and asked for `def handler(state,
arguments)`. Each candidate runs only inside the sandbox (`sandbox.SandboxedHandler`, a
worker subprocess), never in this process, and must pass every verification check of
`verify.check_tool` without a sandbox violation. A rejected candidate's failed checks go
back to the model, up to `attempts` candidates; the first that passes is kept (`coded`),
else the tool stays `simulated` with the last failure as its reason. The caller's service
is never changed: candidates are checked on a copy of its tool table. On a machine that
cannot isolate candidates (see `sandbox_isolation`) it raises `SandboxUnavailable` with the
reason before asking the model for anything.
"""

from __future__ import annotations

import functools
import inspect
import json
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from compoworld.llm import LLMClient, LLMError
from compoworld.services.builtin.sms import SmsToolkit
from compoworld.services.runtime import Service, Tool
from compoworld.services.sandbox import (
    ALLOWED_MODULES,
    Limits,
    SandboxedHandler,
    SandboxViolation,
    require_sandbox,
    source_hash,
)
from compoworld.services.verify import ValueFor, check_tool, id_params
from compoworld.world.state import State

Propose = Callable[[list[dict[str, Any]]], tuple[str, int, int]]
DEFAULT_LIMITS = Limits()
SCHEMA_CHARS = 2500  # one schema in the prompt; real APIs have schemas of tens of KB
COLLECTION_CHARS = 6000  # all collection schemas together
NO_CODE = "no python code block in the reply"
REASON_CHARS = 1000


@dataclass(frozen=True, slots=True)
class Attempt:
    """One candidate handler and how it fared."""

    attempt: int
    source: str | None
    prompt_tokens: int
    completion_tokens: int
    passed: bool
    failures: dict[str, str] | str  # failed check -> detail, or why it never ran
    violation: str | None  # kind of the first sandbox violation


@dataclass(frozen=True, slots=True)
class CodingResult:
    """The coding agent's outcome for one tool: every attempt and the accepted source."""

    service: str
    tool: str
    outcome: Literal["coded", "simulated"]
    attempts: list[Attempt]
    source: str | None
    source_hash: str | None
    reason: str | None  # why it stays simulated (the last failure)

    @property
    def prompt_tokens(self) -> int:
        return sum(a.prompt_tokens for a in self.attempts)

    @property
    def completion_tokens(self) -> int:
        return sum(a.completion_tokens for a in self.attempts)


def llm_proposer(
    client: LLMClient, *, temperature: float = 0.2, max_tokens: int = 1024, seed: int = 0
) -> Propose:
    """A proposer over an OpenAI-compatible endpoint; raises `LLMError` when it fails."""

    def propose(messages: list[dict[str, Any]]) -> tuple[str, int, int]:
        completion = client.create(
            messages=messages, temperature=temperature, max_tokens=max_tokens, seed=seed
        )
        choices = getattr(completion, "choices", None) or []
        text = (choices[0].message.content if choices else None) or ""
        usage = getattr(completion, "usage", None)
        return (text, getattr(usage, "prompt_tokens", 0) or 0,
                getattr(usage, "completion_tokens", 0) or 0)

    return propose


_PLAIN_EXAMPLE = '''\
def handler(state, arguments):
    """notes__rename_note: give a note a new title."""
    note = state.get("notes", arguments["note_id"])  # NotFound (404) when unknown
    title = arguments["title"].strip()
    if not title:
        raise BadRequest("title is empty; give the note's new title")
    if any(n["title"] == title for n in state.records("notes").values()):
        raise Conflict(f"a note titled {title!r} exists; pick another title")
    renamed = dict(note, title=title)  # a copy: the state's record is untouched so far
    state.put("notes", renamed)  # validates first: an invalid record changes nothing
    return renamed
'''

_RULES = """\
## Typed state API (`state`)
- `state.records(collection)` -> dict of id -> record (ids are strings); read it, never change it.
- `state.get(collection, record_id)` -> the record; raises `NotFound` (404) when there is none.
- `state.put(collection, record)` -> validates the record against its collection's schema
  (`Unprocessable`, 422, when invalid) and stores it under its id field.
- `state.delete(collection, record_id)` -> removes and returns the record (`NotFound` if none).
- `state.new_id(collection)` -> the next id for a new record (deterministic).
- `state.id_field(collection)` -> the name of the collection's id field.
Records are plain dicts: copy one (`dict(record)`) before changing it, and return copies.

## Errors (already defined: do not import them)
- `NotFound(message)`: an id names no record (404).
- `Conflict(message)`: a duplicate or a clash with the state (409).
- `BadRequest(message)`: bad input the schema did not catch (400).
- `Unprocessable(message)`: the result would not be a valid record (422).
Raise before you mutate: check everything first, then write, so a rejected call leaves the
state unchanged. Messages are plain sentences saying what to do next. Arguments were already
validated against the parameters schema; optional ones may be missing (`arguments.get`).

## Sandbox rules
- Import only these modules: {modules}.
- No I/O: no files, network, processes, `open`, `eval` or `exec`.
- Deterministic: the same state and arguments give the same result and the same state; no
  `random`, clock or uuid4 unless seeded from the arguments.
- Return JSON data (dicts, lists, strings, numbers, booleans, None) matching the returns schema.

## Checks your handler must pass
valid arguments succeed; the result matches the returns schema; two identical calls give the
same result; an unknown id is a 404; a rejected call leaves the state unchanged; a read
changes nothing."""


@functools.cache
def system_prompt() -> str:
    """The part of the prompt that is the same for every tool: role, state API, errors,
    sandbox rules, checks and examples. It comes first so that servers with prefix caching
    (vLLM, llama.cpp) encode it once for all the tools and retries of a run."""
    examples = "\n".join(
        inspect.getsource(m) for m in (SmsToolkit.block_number, SmsToolkit.unblock_number)
    )
    return "\n".join([
        "You write Python handlers for the tools of simulated web services. A handler "
        "implements one tool over the service's typed state.",
        "",
        _RULES.format(modules=", ".join(sorted(ALLOWED_MODULES))),
        "",
        "## Examples",
        "A handler in the required form:",
        f"```python\n{_PLAIN_EXAMPLE}```",
        "Two hand-written tools of this repository, as toolkit methods (`self.load` is "
        "`state.get`, `self.commit` is `state.put`, `self.remove` is `state.delete`); "
        "yours is a plain function:",
        f"```python\n{inspect.cleandoc(examples)}\n```",
        "",
        "## Answer",
        "Reply with one ```python block defining `def handler(state, arguments):` "
        "(helper functions may come before it).",
    ])


def coding_prompt(service: Service, tool: str) -> list[dict[str, Any]]:
    """The system and user messages asking for a handler of `tool` (see the module doc)."""
    spec = service.tools[tool].spec
    ids = [
        f"- `{p}` holds an id of `{spec.param_types[p].rsplit('.', 2)[-2]}`"
        for p in sorted(id_params(service, tool))
    ]
    user = "\n".join([
        f"Write the handler of the tool `{spec.name}` of the service `{service.name}` "
        f"({service.spec.title}: {service.spec.description})".strip(),
        "",
        "## Tool",
        f"- name: {spec.name}",
        f"- description: {spec.description}",
        f"- effect: {spec.effect}",
        f"- resource (collection it works on): {spec.resource}",
        f"- parameters (JSON Schema): {_json(spec.parameters, SCHEMA_CHARS)}",
        f"- returns (JSON Schema): {_json(spec.returns, SCHEMA_CHARS)}",
        *ids,
        "",
        "## Collections of the service (name, id field, record JSON Schema)",
        _collections(service.state, spec.resource),
        "",
        "Reply with one ```python block defining `def handler(state, arguments):`.",
    ])
    return [{"role": "system", "content": system_prompt()}, {"role": "user", "content": user}]


def _json(value: Any, limit: int) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return text if len(text) <= limit else text[:limit] + " ...(truncated)"


def _collections(state: State, first: str | None) -> str:
    lines, budget = [], COLLECTION_CHARS
    for name in sorted(state.schemas, key=lambda c: (c != first, c)):
        schema = _json(state.schemas[name], min(SCHEMA_CHARS, budget)) if budget > 0 \
            else "(left out: the prompt is long enough)"
        budget -= len(schema)
        lines.append(f"- `{name}` (id field `{state.id_field(name)}`): {schema}")
    return "\n".join(lines) or "(none)"


_PYTHON = frozenset({"", "python", "python3", "py"})


def extract_code(reply: str) -> str | None:
    """The first ```python (or bare ```) block; the whole reply if it starts with `def
    handler`; None otherwise. A block cut off by `max_tokens` runs to the end of the reply."""
    lines, block, language = reply.splitlines(), None, ""
    for line in [*lines, None]:
        fence = line is not None and line.strip().startswith("```")
        if block is None:
            if fence:
                block, language = [], line.strip()[3:].strip().lower()
            continue
        if line is None or fence:
            code = textwrap.dedent("\n".join(block)).strip("\n")
            if language in _PYTHON and code.strip():
                return code + "\n"
            block = None
            continue
        block.append(line)
    text = reply.strip()
    return text + "\n" if text.startswith("def handler") else None


def _describe(failures: dict[str, str] | str) -> str:
    if not isinstance(failures, str):
        failures = "; ".join(f"{check}: {detail}".strip(": ") for check, detail in
                             failures.items())
    return failures if len(failures) <= REASON_CHARS else failures[:REASON_CHARS - 3] + "..."


def feedback_message(attempt: Attempt) -> dict[str, Any]:
    """A user message listing what went wrong and asking for a corrected full handler."""
    if isinstance(attempt.failures, str):
        problems = f"It never ran the checks: {attempt.failures}"
    else:
        problems = "It failed these checks:\n" + "\n".join(
            f"- {check}: {detail}" for check, detail in attempt.failures.items()
        )
    violation = f" (sandbox violation: {attempt.violation})" if attempt.violation else ""
    return {"role": "user", "content": (
        f"Your handler (attempt {attempt.attempt}) was rejected{violation}. {problems}\n"
        "Fix it and reply with the corrected full handler: one ```python block defining "
        "`def handler(state, arguments):`."
    )}


def _try(
    service: Service, tool: str, source: str, seed: int, value_for: ValueFor, limits: Limits
) -> tuple[dict[str, str] | str, str | None]:
    """Check one candidate in the sandbox: (failures, first violation kind)."""
    sandboxed = SandboxedHandler(source, service.state.schemas, limits)

    def guarded(state: State, arguments: dict[str, Any]) -> Any:
        # After one violation the candidate is rejected: repeat it instead of waiting out a
        # timeout per check (the same error each time, so no noise in the other checks).
        if sandboxed.violations:
            first = sandboxed.violations[0]
            raise SandboxViolation(first.kind, first.message)
        return sandboxed(state, arguments)

    tools = dict(service.tools)
    tools[tool] = Tool(service.tools[tool].spec, "coded", guarded)
    candidate = Service(service.spec, tools, service.state)
    try:
        results = check_tool(candidate, service.state, tool, seed, value_for)
        failures = {r.check: r.detail for r in results if not r.passed}
    except Exception as error:  # noqa: BLE001 - a candidate never crashes the factory
        failures = {"checks": f"{type(error).__name__}: {error}"}
    finally:
        sandboxed.close()
    first = sandboxed.violations[0] if sandboxed.violations else None
    if first is None:
        return failures, None
    return {"sandbox": f"{first.kind}: {first.message}"} | failures, first.kind


def code_tool(
    service: Service,
    tool: str,
    propose: Propose,
    *,
    seed: int,
    value_for: ValueFor,
    attempts: int = 3,
    limits: Limits = DEFAULT_LIMITS,
) -> CodingResult:
    """Ask for a handler of `tool` until one passes every check, at most `attempts` times."""
    require_sandbox()  # before the model is asked: no candidate may run unisolated
    messages = coding_prompt(service, tool)
    done: list[Attempt] = []
    reason: str | None = None
    for number in range(1, attempts + 1):
        try:
            reply, prompt_tokens, completion_tokens = propose(list(messages))
        except LLMError as error:
            reason = f"endpoint: {error}"
            break
        source = extract_code(reply)
        if source is None:
            failures: dict[str, str] | str = NO_CODE
            violation = None
        else:
            failures, violation = _try(service, tool, source, seed, value_for, limits)
        passed = not failures and violation is None
        attempt = Attempt(number, source, prompt_tokens, completion_tokens, passed,
                          failures, violation)
        done.append(attempt)
        if passed:
            assert source is not None
            return CodingResult(service.name, tool, "coded", done, source,
                                source_hash(source), None)
        reason = _describe(failures)
        messages += [{"role": "assistant", "content": reply}, feedback_message(attempt)]
    return CodingResult(service.name, tool, "simulated", done, None, None,
                        reason or "no attempt was made")


def code_service(
    service: Service,
    tools: list[str],
    propose: Propose,
    *,
    seed: int,
    value_for: ValueFor,
    attempts: int = 3,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[Service, list[CodingResult]]:
    """Code each of `tools` in turn; a new service (same spec and state) whose accepted
    tools are `coded` (each with a fresh sandboxed handler), and every tool's result."""
    require_sandbox()
    results = [
        code_tool(service, name, propose, seed=seed, value_for=value_for,
                  attempts=attempts, limits=limits)
        for name in tools
    ]
    table = dict(service.tools)
    for result in results:
        if result.outcome == "coded" and result.source is not None:
            handler = SandboxedHandler(result.source, service.state.schemas, limits)
            table[result.tool] = Tool(service.tools[result.tool].spec, "coded", handler)
    return Service(service.spec, table, service.state), results
