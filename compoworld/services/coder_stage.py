"""The coding agent inside the synthesize stage: simulated tools in, coded tools out.

After a service is compiled and verified, the tools left `simulated` (the compiler could
not implement them, or their compiled handler failed a check) and the actions the world
model runs generically (`modeled`: an event in the action log) go to the coding agent
(`coder.py`) when the stage has a coder endpoint. A tool whose handler passes every check
in the sandbox becomes `coded`: mounted, its source stored in `tool_builds`, its checks
recorded under `coded`. Every candidate is one `tool_codings` row (attempt, tokens,
violation, failed checks, outcome), accepted or not.
"""

from __future__ import annotations

from typing import Any

import orjson

from compoworld.services.runtime import Service
from compoworld.services.sandbox_isolation import require_sandbox
from compoworld.services.verify import CheckResult, check_tool, failed_tools

DEFAULT_ATTEMPTS = 3


def coder_params(base_url: str | None, model: str | None, attempts: int = DEFAULT_ATTEMPTS,
                 max_tools: int | None = None, max_tokens: int = 1024,
                 timeout: float = 120.0) -> dict[str, Any] | None:
    """The synthesize stage's `coder` parameter (None without an endpoint)."""
    if not base_url:
        return None
    if not model:
        raise ValueError("the coder needs a model name (--coder-model) as well as its URL")
    if attempts < 1:
        raise ValueError(f"coder attempts must be at least 1, not {attempts}")
    return {"base_url": base_url, "model": model, "attempts": attempts,
            "max_tools": max_tools, "max_tokens": max_tokens, "timeout": float(timeout)}


def codable(implementation: str, reason: str | None) -> bool:
    """Whether the coding agent gets a tool: one left `simulated`, or an action the world
    model runs generically (it logs the event): a coded handler may do its real effect.
    A tool the coder cannot do keeps what it had."""
    action = reason is not None and (reason.startswith("modeled_action")
                                     or "modeled as an action" in reason)
    return implementation == "simulated" or (implementation == "modeled" and action)


def code_simulated(service: Service, coder: dict[str, Any], seed: int,
                   reasons: dict[str, str], results: list[tuple[str, CheckResult]],
                   failures: dict[str, str]) -> list[dict[str, Any]]:
    """Code the service's simulated tools in place; returns the `tool_codings` rows and
    updates `reasons`, `results` and `failures` for the tools that became `coded`."""
    from compoworld.llm import LLMClient
    from compoworld.services.coder import code_service, llm_proposer
    from compoworld.services.synthesize import value_for

    names = sorted(n for n, t in service.tools.items() if codable(t.implementation,
                                                                   reasons.get(n)))
    names = names[:coder.get("max_tools")] if coder.get("max_tools") else names
    if not names:
        return []
    require_sandbox()  # SandboxUnavailable, with the reason, before any request or candidate
    client = LLMClient(coder["base_url"], coder["model"], timeout=coder["timeout"])
    propose = llm_proposer(client, max_tokens=coder["max_tokens"], seed=seed % (1 << 31))
    coded, outcomes = code_service(service, names, propose, seed=seed, value_for=value_for,
                                   attempts=coder["attempts"])
    rows = []
    for outcome in outcomes:
        for attempt in outcome.attempts:
            rows.append({
                "service": service.name, "name": outcome.tool, "attempt": attempt.attempt,
                "passed": attempt.passed, "violation": attempt.violation,
                "failures": orjson.dumps(attempt.failures).decode(),
                "prompt_tokens": attempt.prompt_tokens,
                "completion_tokens": attempt.completion_tokens,
                "source_hash": outcome.source_hash if attempt.passed else None,
                "outcome": outcome.outcome, "model": coder["model"],
            })
        if outcome.outcome != "coded":
            earlier = reasons.get(outcome.tool)
            reasons[outcome.tool] = (f"{earlier}; " if earlier else "") + \
                f"coder: {outcome.reason}"
            continue
        service.tools[outcome.tool] = coded.tools[outcome.tool]
        again = check_tool(service, service.state, outcome.tool, seed, value_for)
        results.extend(("coded", result) for result in again)
        failures.pop(outcome.tool, None)
        failures.update(failed_tools(again))
        service.tools[outcome.tool].handler.close()  # its worker restarts if called again
        reasons[outcome.tool] = f"coded by {coder['model']} in {len(outcome.attempts)} " \
                                "attempt(s)"
    return rows
