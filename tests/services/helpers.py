"""What the verification and coder tests share: a small `notes` service and argument values."""

from __future__ import annotations

import random
from typing import Any

from compoworld.services.runtime import Service, Tool
from compoworld.specs.records import ServiceSpec


def notes_service(tools: dict[str, Tool], note_schema: dict, description: str = "") -> Service:
    """A `notes` service over `tools` whose state holds three notes (`n0`, `n1`, `n2`)."""
    service_spec = ServiceSpec(
        name="notes", title="Notes", description=description, domain="other", source="test",
        resources={"notes": note_schema}, tools=[t.spec for t in tools.values()],
    )
    service = Service(service_spec, tools)
    for index in range(3):
        service.state.put("notes", {"id": service.state.new_id("notes"), "title": f"n{index}"})
    return service


def value_for(schema: dict, rng: random.Random, name: str) -> Any:
    """Argument values for verification: small integers, True, or `v<name>`."""
    return {"integer": rng.randint(1, 9), "boolean": True}.get(schema.get("type"), f"v{name}")
