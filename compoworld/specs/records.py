"""Records for tool specifications: what every loader produces and every later stage reads.

A `ToolSpec` is one callable tool (one OpenAPI operation, one function definition); a
`ServiceSpec` groups the tools of one API. Both cross the Parquet boundary, so they are
pydantic models with extra fields forbidden and a description on every field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Effect = Literal["read", "create", "update", "delete", "action"]


class ToolSpec(BaseModel):
    """One tool: a name, a JSON Schema for its arguments and one for its result."""

    model_config = ConfigDict(extra="forbid")

    service: str = Field(description="Name of the service this tool belongs to.")
    name: str = Field(
        description="Tool name, unique across the world, `service__verb_object` style."
    )
    description: str = Field(description="What the tool does, trimmed to a few sentences.")
    parameters: dict[str, Any] = Field(
        description="JSON Schema object of all arguments (path, query and body merged)."
    )
    returns: dict[str, Any] = Field(description="JSON Schema of the successful result.")
    effect: Effect = Field(description="What the call does to state: read/create/update/...")
    resource: str | None = Field(
        default=None, description="Entity collection the tool works on (e.g. `contacts`)."
    )
    source: str = Field(
        description="Where the tool came from, e.g. `openapi:stripe.com#POST /v1/customers`."
    )
    param_types: dict[str, str] = Field(
        default_factory=dict,
        description="Semantic type of every top-level parameter, by parameter name.",
    )
    return_types: dict[str, str] = Field(
        default_factory=dict,
        description="Semantic type of every returned field, by dotted path (`[]` = item).",
    )


class ServiceSpec(BaseModel):
    """One service: an API's metadata, its entity collections and its tools."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Service name, unique across the world (snake_case).")
    title: str = Field(description="Human-readable title.")
    description: str = Field(description="What the service is for, trimmed.")
    domain: str = Field(description="Coarse domain (e.g. `commerce`, `messaging`, `other`).")
    source: str = Field(description="Where the document came from, e.g. `openapi:xkcd.com`.")
    license: str | None = Field(
        default=None,
        description="SPDX licence of the package the tools came from (an MCP server's), "
        "or null where the source states none.",
    )
    resources: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Entity collection name -> JSON Schema of one record (with an id field).",
    )
    tools: list[ToolSpec] = Field(default_factory=list, description="The service's tools.")


class SpecError(BaseModel):
    """A document that could not be ingested, and why (one row of `spec_errors`)."""

    model_config = ConfigDict(extra="forbid")

    document: str = Field(description="Document identifier (path relative to its source).")
    source: str = Field(description="Source the document came from.")
    reason: str = Field(description="One line saying why it was rejected.")
