"""Records of rollouts: one agent episode on one task, scored criterion by criterion.

A `Rollout` crosses the Parquet boundary (`rollouts` table) and feeds the reward stage
(CFRR per group) and the SFT export, so it is a pydantic model with extra fields
forbidden and a description on every field (DESIGN.md, "Core records").
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Mode = Literal["direct", "gateway"]
Status = Literal["ok", "infra_error"]
FinishReason = Literal["answer", "step_budget", "policy_stop", "infra_error"]


class Rollout(BaseModel):
    """One episode of one policy on one task, with its scores."""

    model_config = ConfigDict(extra="forbid")

    task_id: str = Field(description="The task the episode worked on.")
    group_id: str = Field(description="Rollouts of one task in one run form a group (GRPO).")
    rollout_idx: int = Field(description="Index of the rollout within its group.")
    policy: str = Field(description="`reference`, `noisy`, `random` or `openai`.")
    model: str | None = Field(default=None, description="Model name for `openai` policies.")
    mode: Mode = Field(description="Tool view: `direct` (every tool) or `gateway` (meta-tools).")
    messages: list[dict[str, Any]] = Field(description="The episode in OpenAI chat format.")
    tools: list[dict[str, Any]] = Field(description="OpenAI function schemas the agent saw.")
    final_answer: str = Field(description="The last assistant message without tool calls.")
    passes: list[bool] = Field(description="Per rubric criterion, in rubric order: passed.")
    rubric_score: float = Field(description="Share of criteria passed.")
    score: float = Field(description="1.0 when every criterion passed, else 0.0.")
    net_score: float = Field(
        description="Share passed of the criteria a do-nothing agent fails (no free credit)."
    )
    status: Status = Field(description="`infra_error` when the endpoint kept failing.")
    finish_reason: FinishReason = Field(description="Why the episode ended.")
    n_steps: int = Field(description="Assistant turns.")
    n_tool_calls: int = Field(description="Tool calls made (meta-tools included).")
    n_real_tool_calls: int = Field(description="Calls that reached a service tool.")
    seconds_model: float = Field(description="Wall seconds waiting for the policy.")
    seconds_env: float = Field(description="Wall seconds in the environment and scoring.")
    prompt_tokens: int = Field(default=0, description="Prompt tokens the endpoint reported.")
    completion_tokens: int = Field(default=0, description="Completion tokens it reported.")
    error: str | None = Field(default=None, description="What failed, for `infra_error`.")
