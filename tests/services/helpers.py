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


def api_document(collections: dict[str, int], *, category: str = "other") -> dict:
    """An OpenAPI document with `count` tools on each collection (`{"customers": 20}`):
    `GET /v<k>/<collection>` for k < count, so each tool reads that collection."""
    record = {"type": "object", "properties": {"id": {"type": "string"},
                                               "name": {"type": "string"}}}
    ok = {"200": {"description": "ok",
                  "content": {"application/json": {"schema": {"type": "array",
                                                              "items": record}}}}}
    paths = {f"/v{k}/{collection}": {"get": {"operationId": f"list_{collection}_v{k}",
                                             "responses": ok}}
             for collection, count in collections.items() for k in range(count)}
    return {"openapi": "3.0.0", "paths": paths,
            "info": {"title": "Big API", "version": "1", "x-apisguru-categories": [category]}}
