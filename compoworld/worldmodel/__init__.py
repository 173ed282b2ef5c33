"""World models for `simulated` tools: schema-valid, consistent responses (DESIGN.md).

- `offline.OfflineWorldModel`: deterministic, no network; same call -> same answer.
- `llm.LLMWorldModel`: asks a language model, validates, falls back to the offline model,
  and caches every answer (`cache.ResponseCache`) so one world gives one answer per call.

Both offer `respond(tool, arguments, state_summary)` and `handler_for(tool)`, the handler
the compiler mounts for a simulated tool.
"""

from compoworld.worldmodel.cache import ResponseCache, cache_key
from compoworld.worldmodel.llm import LLMWorldModel
from compoworld.worldmodel.offline import OfflineWorldModel, WorldModelError, summarize_state

__all__ = [
    "LLMWorldModel",
    "OfflineWorldModel",
    "ResponseCache",
    "WorldModelError",
    "cache_key",
    "summarize_state",
]
