"""Records of a composed task: its gold calls with their argument bindings, its rubric, and
the task itself (DESIGN.md, "Core records").

They cross the Parquet boundary (the `tasks` table holds them as JSON) and later the
rollout and reward stages read them back, so they are pydantic models with extra fields
forbidden and a description on every field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

CriterionKind = Literal[
    "record_created", "field_equals", "record_deleted", "answer_contains",
    "no_collateral_change", "record_untouched",
]
Capability = Literal["sequential-dependency", "cross-env-constraint", "fan-out", "aggregation"]


class Selector(BaseModel):
    """How the instruction names one item of a listed result: the item whose `field` is
    `value` (a visible value: it appears in the instruction)."""

    model_config = ConfigDict(extra="forbid")

    field: str = Field(description="Dotted path of the identifying field inside the item.")
    value: Any = Field(description="The identifying value (visible).")


# The type of an `aside` binding that holds what a booking is for ("Account review").
PURPOSE = "purpose"


class Binding(BaseModel):
    """Where one argument's value comes from."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["visible", "hidden", "free", "aside"] = Field(
        description="`visible`: a literal stated in the instruction; `hidden`: an earlier "
        "step's output the agent must discover; `free`: text the agent writes itself (a "
        "message's body: the instruction says what it is about, the rubric checks only that it "
        "says something, two words at least); `aside`: a detail the reference fills in that "
        "the request leaves to the agent and no check looks at (a meeting's time zone); of "
        "type `purpose`, what a booking is for (its title, \"Account review\"), which a "
        "check finds by its words in any field of the record."
    )
    type: str = Field(description="Semantic type of the parameter (and of the source field).")
    step: int | None = Field(
        default=None, description="For hidden values: the 0-based index of the source call."
    )
    field: str | None = Field(
        default=None, description="For hidden values: the source field's typed path, `[]` "
        "standing for any list item (`data[].email`)."
    )
    path: str | None = Field(
        default=None, description="For hidden values: the concrete path in the source result "
        "(`data[2].email`)."
    )
    selector: Selector | None = Field(
        default=None, description="For a value inside a list item: how the item is named."
    )

    def names_found(self) -> bool:
        """Whether this is the agent's own text that carries a value found earlier, at
        `step` and `path` (a follow-up task's title "Follow up with Julia Nguyen")."""
        return self.kind == "free" and self.step is not None and bool(self.path)


class GoldCall(BaseModel):
    """One call of the gold solution, with what it returned when composed."""

    model_config = ConfigDict(extra="forbid")

    tool: str = Field(description="Tool name (unique across the world).")
    service: str = Field(description="Service the tool belongs to.")
    effect: str = Field(description="The tool's effect: read/create/update/delete/action.")
    arguments: dict[str, Any] = Field(description="The arguments of the call.")
    bindings: dict[str, Binding] = Field(description="Where each argument came from.")
    result: Any = Field(description="The `data` of the call's success result.")


class AnswerItem(BaseModel):
    """A value the user asks to be reported in the final answer."""

    model_config = ConfigDict(extra="forbid")

    step: int = Field(description="Gold call whose result holds the value.")
    path: str = Field(description="Concrete path of the value in that result.")
    label: str = Field(description="What the value is, in words (`the payee's email`).")
    value: Any = Field(description="The expected value.")
    selector: Selector | None = Field(
        default=None, description="For a value inside a list item: how the item is named."
    )


class Criterion(BaseModel):
    """One checkable requirement of a task's rubric (AppWorld style)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Criterion id, unique within the task (`c0`, `c1`, ...).")
    description: str = Field(description="The requirement in plain English.")
    kind: CriterionKind = Field(description="Which assertion guards the requirement.")
    service: str | None = Field(default=None, description="Service whose state it checks.")
    params: dict[str, Any] = Field(
        default_factory=dict, description="The assertion's parameters (collection, id, fields, "
        "value ...)."
    )
    noop_passes: bool = Field(
        default=False, description="Whether a do-nothing agent passes it (only the guard "
        "`no_collateral_change` and a near-miss's `record_untouched` may)."
    )


class Task(BaseModel):
    """A verified compositional task: everything rollouts and rewards need."""

    model_config = ConfigDict(extra="forbid")

    task_id: str = Field(description="Stable id: run seed, shard and walk index digest.")
    services: list[str] = Field(description="Services the gold solution uses, in call order.")
    distractors: list[str] = Field(description="Services mounted beside them, not needed.")
    world_seed: int = Field(description="Seed the task's world is built from.")
    instruction: str = Field(description="What the user asks, in English.")
    visible_values: list[Any] = Field(description="Literals the instruction states.")
    hidden_values: list[Any] = Field(description="Values the agent must discover.")
    gold_calls: list[GoldCall] = Field(description="The gold solution.")
    answer: list[AnswerItem] = Field(description="Values the final answer must contain.")
    rubric: list[Criterion] = Field(description="The checkable criteria.")
    capabilities: list[Capability] = Field(description="What the task exercises.")
    step_budget: int = Field(description="Tool calls an agent may make.")
    signature: str = Field(description="Canonical digest of the tool chain and bindings.")
    pattern: str | None = Field(
        default=None, description="The workflow pattern the walk followed (compose/patterns.py), "
        "or None for a free walk."
    )
    domain: str | None = Field(
        default=None, description="The domain of the task's services (the corpus category)."
    )
    instruction_style: str = Field(
        default="steps", description="How the instruction is written: `goal` (what the user "
        "wants and knows) or `steps` (every call dictated)."
    )
    operators: list[str] = Field(
        default_factory=list, description="The reasoning operators the task asks for "
        "(`compose/workflow.OPERATORS`: `select` and `for_each` of a workflow asked for every "
        "record a rule selects, `rank`, `ensure`); empty for a task about one record."
    )
    kind: str = Field(default="errand", description="`errand` (one workflow, one record), "
                      "`workflow` (records a rule or rank chooses) or `job` (several workflows) "
                      "(`compose/mix.kind_of`).")
    hops: int = Field(default=0, description="The longest chain of calls each fed a value "
                      "the one before it found.")
    difficulty: int = Field(default=1, description="1 to 5, by calls, apps, hops and "
                            "operators (`compose/build.difficulty`).")
    world_patch: list[dict[str, Any]] = Field(
        default_factory=list, description="Fields set in the seeded world before the task "
        "starts, each `{service, collection, id, field, value}`: the records a selection "
        "chooses and its near-misses (`compose/each.designed`).")
