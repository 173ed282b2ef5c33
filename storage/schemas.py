"""Typed schemas of every Parquet table.

Physical tables are written by stages; `VIEWS` adds views computed from them. `tools` is
one: each ingested tool (`tool_specs`) with how synthesis built it (`tool_builds`:
`implementation`, `mounted`), null until the synthesize stage has run. Its `param_types`
are synthesis's when there are any: the compiler resolves key parameters to collections
(`creditAccountId` -> `accounts` ids) that ingest could not type.

`run_id` is not stored inside the files: it is the hive partition (`run_id=<id>/`) and the
DuckDB views read it back as a VARCHAR column. JSON-valued columns are JSON strings; lists
of names are Parquet lists (DESIGN.md, Storage).
"""

from __future__ import annotations

import pyarrow as pa

_JSON = pa.string()

SCHEMAS: dict[str, pa.Schema] = {
    "specs": pa.schema(
        [
            ("service", pa.string()),
            ("document", pa.string()),
            ("title", pa.string()),
            ("description", pa.string()),
            ("domain", pa.string()),
            ("source", pa.string()),
            ("n_tools", pa.int32()),
            ("resources", pa.list_(pa.string())),
            ("spec", _JSON),
        ]
    ),
    "tool_specs": pa.schema(
        [
            ("service", pa.string()),
            ("name", pa.string()),
            ("description", pa.string()),
            ("effect", pa.string()),
            ("resource", pa.string()),
            ("source", pa.string()),
            ("parameters", _JSON),
            ("returns", _JSON),
            ("param_types", _JSON),
            ("return_types", _JSON),
            ("n_params", pa.int32()),
        ]
    ),
    "services": pa.schema(
        [
            ("service", pa.string()),
            ("title", pa.string()),
            ("domain", pa.string()),
            ("source", pa.string()),
            ("world_seed", pa.int64()),
            ("verified", pa.bool_()),
            ("reason", pa.string()),
            ("n_tools", pa.int32()),
            ("n_mounted", pa.int32()),
            ("n_compiled", pa.int32()),
            ("n_modeled", pa.int32()),
            ("n_simulated", pa.int32()),
            ("n_builtin", pa.int32()),
            ("n_coded", pa.int32()),
            ("start_digest", pa.string()),
            ("seconds", pa.float64()),
            # The default selection (services/selection.py): the tools a large API is
            # mounted with (null: all of them), and why the service is in the selection.
            ("tool_subset", pa.list_(pa.string())),
            ("selection_reason", pa.string()),
        ]
    ),
    "tool_builds": pa.schema(
        [
            ("service", pa.string()),
            ("name", pa.string()),
            ("implementation", pa.string()),
            ("mounted", pa.bool_()),
            ("reason", pa.string()),
            ("checks_passed", pa.int32()),
            ("checks_failed", pa.int32()),
            ("param_types", _JSON),
            # `coded` tools: the accepted handler's source text and its sha256.
            ("source", pa.string()),
            ("source_hash", pa.string()),
        ]
    ),
    # The coding agent's attempts, one row per candidate handler of a simulated tool.
    "tool_codings": pa.schema(
        [
            ("service", pa.string()),
            ("name", pa.string()),
            ("attempt", pa.int32()),
            ("passed", pa.bool_()),
            ("violation", pa.string()),
            ("failures", _JSON),
            ("prompt_tokens", pa.int64()),
            ("completion_tokens", pa.int64()),
            ("source_hash", pa.string()),
            ("outcome", pa.string()),
            ("model", pa.string()),
        ]
    ),
    "tool_checks": pa.schema(
        [
            ("service", pa.string()),
            ("tool", pa.string()),
            ("implementation", pa.string()),
            ("check", pa.string()),
            ("passed", pa.bool_()),
            ("detail", pa.string()),
        ]
    ),
    "spec_errors": pa.schema(
        [
            ("document", pa.string()),
            ("source", pa.string()),
            ("reason", pa.string()),
        ]
    ),
    "graph_edges": pa.schema(
        [
            ("source", pa.string()),
            ("source_service", pa.string()),
            ("field", pa.string()),
            ("target", pa.string()),
            ("target_service", pa.string()),
            ("param", pa.string()),
            ("type", pa.string()),
            ("cross_service", pa.bool_()),
            # How strongly the field and the parameter mean the same thing (graph/roles.py);
            # walks follow only edges at or above the compose edge threshold.
            ("score", pa.float64()),
        ]
    ),
    "graph_stats": pa.schema(
        [
            ("nodes", pa.int64()),
            ("services", pa.int64()),
            ("edges", pa.int64()),
            ("cross_service_edges", pa.int64()),
            ("connected_services", pa.int64()),
            ("service_pairs", pa.int64()),
            ("stored_edges", pa.int64()),
            ("start_tools", pa.int64()),
            ("out_degree", _JSON),
            ("in_degree", _JSON),
        ]
    ),
    "tasks": pa.schema(
        [
            ("task_id", pa.string()),
            ("services", pa.list_(pa.string())),
            ("distractors", pa.list_(pa.string())),
            ("world_seed", pa.int64()),
            ("instruction", pa.string()),
            ("capabilities", pa.list_(pa.string())),
            ("step_budget", pa.int32()),
            ("signature", pa.string()),
            ("pattern", pa.string()),
            ("domain", pa.string()),
            ("instruction_style", pa.string()),
            ("operators", pa.list_(pa.string())),
            ("kind", pa.string()),
            ("hops", pa.int32()),
            ("difficulty", pa.int32()),
            ("visible_values", _JSON),
            ("hidden_values", _JSON),
            ("gold_calls", _JSON),
            ("answer", _JSON),
            ("rubric", _JSON),
            ("world_patch", _JSON),
            ("start_tool", pa.string()),
            ("n_calls", pa.int32()),
            ("n_services", pa.int32()),
            ("n_criteria", pa.int32()),
            ("verified", pa.bool_()),
            ("seconds", pa.float64()),
            ("replay_deterministic", pa.bool_()),
            ("gold_passes", pa.bool_()),
            ("start_fails", pa.bool_()),
            ("no_hidden_leak", pa.bool_()),
            ("visible_stated", pa.bool_()),
            ("cross_service", pa.bool_()),
            ("within_budget", pa.bool_()),
            ("unique", pa.bool_()),
            # The optional LLM judge (compose/judge.py), all null when the run had none.
            # `verified` is false for a task it dropped (`judged_kept` false); a judge that
            # failed leaves the ratings null, `judge_error` set and the task kept.
            ("judge_realism", pa.float64()),
            ("judge_link_sense", pa.float64()),
            ("judge_reason", pa.string()),
            ("judge_error", pa.string()),
            ("judged_kept", pa.bool_()),
        ]
    ),
    "walks": pa.schema(
        [
            ("walk", pa.int32()),
            ("shard", pa.int32()),
            ("start_tool", pa.string()),
            ("task_id", pa.string()),
            ("outcome", pa.string()),
            ("seconds", pa.float64()),
        ]
    ),
    "rollouts": pa.schema(
        [
            ("task_id", pa.string()),
            ("group_id", pa.string()),
            ("rollout_idx", pa.int32()),
            ("policy", pa.string()),
            ("model", pa.string()),
            ("mode", pa.string()),
            ("messages", _JSON),
            ("tools", _JSON),
            ("final_answer", pa.string()),
            ("passes", pa.list_(pa.bool_())),
            ("rubric_score", pa.float64()),
            ("score", pa.float64()),
            ("net_score", pa.float64()),
            ("status", pa.string()),
            ("finish_reason", pa.string()),
            ("n_steps", pa.int32()),
            ("n_tool_calls", pa.int32()),
            ("n_real_tool_calls", pa.int32()),
            ("seconds_model", pa.float64()),
            ("seconds_env", pa.float64()),
            ("prompt_tokens", pa.int64()),
            ("completion_tokens", pa.int64()),
            ("error", pa.string()),
            ("services", pa.list_(pa.string())),
            ("capabilities", pa.list_(pa.string())),
        ]
    ),
    "rewards": pa.schema(
        [
            ("task_id", pa.string()),
            ("group_id", pa.string()),
            ("rollout_idx", pa.int32()),
            ("policy", pa.string()),
            ("reward", pa.float64()),
            ("advantage", pa.float64()),
            ("rubric_reward", pa.float64()),
            ("binary_reward", pa.float64()),
            ("excluded", pa.bool_()),
            ("weights", _JSON),
            ("alpha", pa.float64()),
            ("eps", pa.float64()),
            ("beta", pa.float64()),
        ]
    ),
    "sft": pa.schema(
        [
            ("task_id", pa.string()),
            ("rollout_idx", pa.int32()),
            ("policy", pa.string()),
            ("model", pa.string()),
            ("tools", _JSON),
            ("messages", _JSON),
            ("meta", _JSON),
            ("source", _JSON),
        ]
    ),
    "rl_tasks": pa.schema(
        [
            ("task_id", pa.string()),
            ("instruction", pa.string()),
            ("services", pa.list_(pa.string())),
            ("distractors", pa.list_(pa.string())),
            ("world_seed", pa.int64()),
            ("rubric", _JSON),
            ("answer", _JSON),
            ("step_budget", pa.int32()),
            ("capabilities", pa.list_(pa.string())),
            ("domain", pa.string()),
            ("n_calls", pa.int32()),
            ("n_services", pa.int32()),
            ("operators", pa.list_(pa.string())),
            ("hops", pa.int32()),
            ("difficulty", pa.int32()),
            ("world_patch", _JSON),
        ]
    ),
    # One row per training run (SFT, or one RL run of several iterations).
    "training_runs": pa.schema(
        [
            ("training_id", pa.string()),
            ("kind", pa.string()),
            ("recipe", pa.string()),
            ("config_path", pa.string()),
            ("config", _JSON),
            ("base_checkpoint", pa.string()),
            ("checkpoint", pa.string()),
            ("data_path", pa.string()),
            ("data_digest", pa.string()),
            ("samples", pa.int64()),
            ("steps", pa.int64()),
            ("losses", pa.list_(pa.float64())),
            ("first_loss", pa.float64()),
            ("final_loss", pa.float64()),
            ("tokens_per_second", pa.float64()),
            ("seconds", pa.float64()),
            ("finished_at", pa.timestamp("us", tz="UTC")),
        ]
    ),
    # One row per RL iteration: the rollouts of the served checkpoint, then the update.
    "training_metrics": pa.schema(
        [
            ("training_id", pa.string()),
            ("iteration", pa.int32()),
            ("rollout_stage", pa.string()),
            ("checkpoint", pa.string()),
            ("tasks", pa.int32()),
            ("rollouts", pa.int32()),
            ("infra_errors", pa.int32()),
            ("mean_reward", pa.float64()),
            ("completion_rate", pa.float64()),
            ("mean_rubric_score", pa.float64()),
            ("nonzero_advantages", pa.int32()),
            ("loss", pa.float64()),
            ("kl", pa.float64()),
            ("clip_fraction", pa.float64()),
            ("grad_norm", pa.float64()),
            ("tokens_trained", pa.int64()),
            ("seconds_rollout", pa.float64()),
            ("seconds_update", pa.float64()),
            ("finished_at", pa.timestamp("us", tz="UTC")),
        ]
    ),
    "stage_runs": pa.schema(
        [
            ("stage", pa.string()),
            ("shard", pa.int32()),
            ("shards", pa.int32()),
            ("input_hash", pa.string()),
            ("status", pa.string()),
            ("rows", pa.int64()),
            ("items", pa.int32()),
            ("seconds", pa.float64()),
            ("error", pa.string()),
            ("finished_at", pa.timestamp("us", tz="UTC")),
            # JSON {table: {file, rows, bytes}}: the files a `done` shard wrote, the only
            # files reads list, and what resume checks them against.
            ("files", _JSON),
        ]
    ),
}


VIEWS: dict[str, str] = {
    "tools": """
        SELECT s.* EXCLUDE (param_types),
               coalesce(b.param_types, s.param_types) AS param_types,
               b.implementation, b.mounted, b.reason AS build_reason,
               b.checks_passed, b.checks_failed, b.source, b.source_hash
        FROM tool_specs AS s
        LEFT JOIN tool_builds AS b ON b.run_id = s.run_id AND b.name = s.name
    """,
}


def schema_for(table: str) -> pa.Schema:
    """The schema of `table`; a clear error for a name that is not a table."""
    try:
        return SCHEMAS[table]
    except KeyError:
        known = ", ".join(sorted(SCHEMAS))
        raise KeyError(f"unknown table {table!r} (known: {known})") from None
