"""Ingest one shard of documents: each becomes a service spec with its tools, or an error row.

This is the `ingest` stage's work function (see storage/stage.py). A document that cannot
be ingested never stops the shard: it becomes a `spec_errors` row naming it and the reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compoworld.shards import Shard
from compoworld.specs import SpecLoadError
from compoworld.specs.records import ServiceSpec
from compoworld.specs.sources import list_documents, load_document, resolve_source


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


def source_documents(source: str, cache: Path) -> tuple[str, list[str]]:
    """The root and sorted document list of a source; `builtin` lists the built-in services.

    The built-in services are the offline default when the npm corpus cannot be had.
    """
    if source == BUILTIN:
        from compoworld.services.builtin import BUILTIN_SERVICES

        return BUILTIN, sorted(BUILTIN_SERVICES)
    root = resolve_source(source, cache)
    return str(root), list_documents(root)


def load_spec(root: str, document: str) -> ServiceSpec:
    """One document of a source as a ServiceSpec (SpecLoadError when it cannot be)."""
    if root == BUILTIN:
        from compoworld.services.builtin import builtin_spec

        return builtin_spec(document)
    return load_document(Path(root), document)


def ingest_shard(shard: Shard, store: Any = None) -> dict[str, list[dict[str, Any]]]:
    """Load every document of the shard; returns rows for `specs`, `tool_specs`, `spec_errors`.

    `store` is unused: ingest reads documents, not tables.
    """
    root = shard.params["root"]
    source = shard.params["source"]
    specs: list[dict[str, Any]] = []
    tools: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for document in shard.items:
        try:
            spec = load_spec(root, document)
        except SpecLoadError as error:
            errors.append({"document": document, "source": source, "reason": str(error)})
            continue
        service, service_tools = spec_rows(spec, document)
        specs.append(service)
        tools.extend(service_tools)
    return {"specs": specs, "tool_specs": tools, "spec_errors": errors}
