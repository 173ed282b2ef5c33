"""Fetch the pinned MCP servers (specs/mcp_servers.py) and store the tools each one lists.

`fetch_mcp_servers(cache_dir)` builds `<cache>/mcp-servers-<digest of the pins>/`:

- `node/`: one `npm install` of every pinned package (no install scripts, no dev
  dependencies, transitive versions as of `NPM_BEFORE`);
- `tools/<package>@<version>.json`: the document of each server that listed its tools
  (`mcp_servers.mcp_document`), which `load_document` and so ingest read;
- `errors.json`: one row per server that did not (package, version, licence, reason): one
  that cannot start offline, times out, lists nothing, or whose installed package.json
  does not state the pinned version and a permissive licence;
- `fetch.json`: how long the install and the listing took.

Each server is started with its dummy credentials, in an empty home folder of its own, with
no environment of the user's beyond PATH and the like (none of the user's real tokens), and
without network where the system allows a private network namespace (`unshare -rn`); it is
read through the Python `mcp` client (`stdio_client`, `ClientSession.initialize`,
`list_tools`, every page) under a timeout. Everything is built in a hidden staging folder
and renamed into place, so a half-done fetch is never seen; a folder already there is
returned as it is. A fetch in which no server at all lists its tools raises SourceError and
leaves nothing behind (npm or node is broken, not one server).
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from compoworld.specs.errors import SourceError
from compoworld.specs.mcp_servers import (
    MCP_SERVERS,
    NPM_BEFORE,
    PERMISSIVE_LICENSES,
    McpServer,
    mcp_document,
    pins_digest,
)
from compoworld.specs.sources import publish

MCP_TIMEOUT_S = 60.0
_NPM_TIMEOUT_S = 1200
_MAX_PAGES = 100  # a server whose cursor never ends is cut off, not followed forever


def mcp_servers_dir(cache_dir: Path, servers: tuple[McpServer, ...] = MCP_SERVERS) -> Path:
    """The cache folder of a pin list's fetch (which may not exist yet)."""
    return Path(cache_dir) / f"mcp-servers-{pins_digest(servers)}"


def mcp_documents_dir(cache_dir: Path, servers: tuple[McpServer, ...] = MCP_SERVERS) -> Path:
    """The folder of a pin list's tool documents (which may not exist yet)."""
    return mcp_servers_dir(cache_dir, servers) / "tools"


def fetch_mcp_servers(cache_dir: Path, servers: tuple[McpServer, ...] = MCP_SERVERS, *,
                      timeout_s: float = MCP_TIMEOUT_S) -> Path:
    """The folder of the pinned servers' tool documents in the cache, installed with npm
    and listed offline first if absent (module docstring)."""
    target = mcp_servers_dir(cache_dir, servers)
    if (target / "tools").is_dir():
        return target / "tools"
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        raise SourceError("npm and node are needed to fetch the MCP servers: install Node.js")
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".fetch-mcp-") as tmp:
        staged = Path(tmp) / "staged"
        started = time.monotonic()
        install_packages(servers, staged / "node", npm)
        installed = time.monotonic()
        documents, errors = list_servers(servers, staged / "node", node, timeout_s=timeout_s)
        listed = time.monotonic()
        if not documents:
            first = errors[0]["reason"] if errors else "no servers pinned"
            raise SourceError(f"no MCP server listed its tools offline (first: {first})")
        write_fetch(staged, documents, errors, {
            "npm_install_seconds": round(installed - started, 1),
            "list_seconds": round(listed - installed, 1),
            "servers": len(servers), "listed": len(documents), "errors": len(errors)})
        return publish(staged, target, "tools")
    return target / "tools"


def install_packages(servers: tuple[McpServer, ...], node_dir: Path, npm: str) -> None:
    """`npm install` every pinned package into `node_dir`; SourceError if npm fails."""
    node_dir.mkdir(parents=True, exist_ok=True)
    manifest = {"name": "compoworld-mcp-servers", "version": "0.0.0", "private": True,
                "dependencies": {s.package: s.version for s in servers}}
    (node_dir / "package.json").write_text(json.dumps(manifest, indent=1) + "\n")
    command = [npm, "install", "--ignore-scripts", "--omit=dev", "--no-audit", "--no-fund",
               "--update-notifier=false", "--loglevel=error", f"--before={NPM_BEFORE}"]
    try:
        done = subprocess.run(command, cwd=node_dir, capture_output=True, text=True,
                              timeout=_NPM_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SourceError(f"npm install of the MCP servers failed: {exc}") from exc
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SourceError(f"npm install of the MCP servers failed (exit {done.returncode}): "
                          f"{last}")


def list_servers(servers: tuple[McpServer, ...], node_dir: Path, node: str, *,
                 timeout_s: float = MCP_TIMEOUT_S
                 ) -> tuple[dict[str, dict[str, Any]], list[dict[str, str]]]:
    """Start each installed server offline and read its tools, one after the other:
    (document file name -> document, error rows sorted by package). A server that fails
    is its error row; it never stops the others."""
    import anyio

    documents: dict[str, dict[str, Any]] = {}
    errors: list[dict[str, str]] = []
    for server in servers:
        try:
            problem = installed_problem(server, node_dir)
            if problem:
                raise RuntimeError(problem)
            tools, info = anyio.run(_list_tools, server, node_dir, node, timeout_s)
            if not tools:
                raise RuntimeError("it listed no tools")
            documents[server.document_name] = mcp_document(server, tools, info)
        except Exception as error:  # noqa: BLE001 - one server never fails the fetch
            errors.append({"package": server.package, "version": server.version,
                           "license": server.license, "reason": _reason(error)})
    return documents, sorted(errors, key=lambda row: (row["package"], row["version"]))


def installed_problem(server: McpServer, node_dir: Path) -> str | None:
    """Why the installed package may not be listed (its own package.json does not state
    the pinned version and licence, or the licence is not permissive), or None."""
    path = node_dir / "node_modules" / server.package / "package.json"
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        return f"{server.spec} is not installed"
    if manifest.get("version") != server.version:
        return f"installed version {manifest.get('version')!r} is not {server.version}"
    if manifest.get("license") != server.license:
        return f"its package.json licence {manifest.get('license')!r} is not {server.license}"
    if server.license not in PERMISSIVE_LICENSES:
        return f"licence {server.license} is not permissive"
    return None


def write_fetch(folder: Path, documents: dict[str, dict[str, Any]],
                errors: list[dict[str, str]], summary: dict[str, Any]) -> None:
    """Write the tool documents, the error rows and the summary of a fetch into `folder`."""
    tools = folder / "tools"
    tools.mkdir(parents=True, exist_ok=True)
    for name, document in sorted(documents.items()):
        (tools / name).write_text(_dumps(document))
    (folder / "errors.json").write_text(_dumps(errors))
    (folder / "fetch.json").write_text(_dumps(summary))


def server_command(server: McpServer, node_dir: Path, node: str) -> list[str]:
    """The command line that starts a server over stdio: `node <entry> <args>`, inside a
    private network namespace where the system allows one."""
    entry = node_dir / "node_modules" / server.package / server.entry
    return [*_offline_prefix(), node, str(entry), *server.args]


def server_env(server: McpServer, home: Path) -> dict[str, str]:
    """The environment a server starts with (over the `mcp` client's PATH, SHELL, ...): its
    dummy credentials, its own home, and no colours on stderr."""
    env = {key: value.replace("{home}", str(home)) for key, value in server.env.items()}
    return {"HOME": str(home), "NO_COLOR": "1", **env}


async def _list_tools(server: McpServer, node_dir: Path, node: str, timeout_s: float
                      ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One server's tools (`tools/list` entries, as JSON) and its `serverInfo`."""
    import anyio
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    with tempfile.TemporaryDirectory(prefix="compoworld-mcp-") as tmp:
        home = Path(tmp) / "home"
        for rel, text in server.files.items():
            (home / rel).parent.mkdir(parents=True, exist_ok=True)
            (home / rel).write_text(text)
        home.mkdir(exist_ok=True)
        command = server_command(server, node_dir, node)
        params = StdioServerParameters(command=command[0], args=command[1:],
                                       env=server_env(server, home), cwd=str(home))
        with open(Path(tmp) / "stderr.log", "w+") as errlog:
            try:
                with anyio.fail_after(timeout_s):
                    async with stdio_client(params, errlog=errlog) as (read, write), \
                            ClientSession(read, write) as session:
                        init = await session.initialize()
                        tools: list[types.Tool] = []
                        cursor: str | None = None
                        for _ in range(_MAX_PAGES):
                            page = await session.list_tools(
                                params=types.PaginatedRequestParams(cursor=cursor)
                                if cursor else None)
                            tools.extend(page.tools)
                            cursor = page.next_cursor
                            if not cursor:
                                break
            except Exception as error:
                errlog.seek(0)
                raise _ServerFailed(_leaf(error), errlog.read()) from error
    info = init.server_info.model_dump(mode="json", by_alias=True, exclude_none=True)
    return [_tool_json(tool) for tool in tools], info


class _ServerFailed(Exception):
    """A server's start or listing failed: the cause, and the end of what it said on stderr."""

    def __init__(self, cause: BaseException, stderr: str) -> None:
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        said = f" (stderr: {lines[-1][:200]})" if lines else ""
        super().__init__(f"{_describe(cause)}{said}")


def _tool_json(tool: Any) -> dict[str, Any]:
    """A tool as its `tools/list` JSON, without the parts that do not describe it (icons,
    `_meta`), so the stored document changes only when the tool does."""
    data = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {k: v for k, v in data.items()
            if k in ("name", "title", "description", "inputSchema", "outputSchema",
                     "annotations")}


def _leaf(error: BaseException) -> BaseException:
    """The first exception inside (nested) exception groups: the one that says why."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def _describe(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "it did not list its tools in time"
    message = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _reason(error: BaseException) -> str:
    if isinstance(error, _ServerFailed | RuntimeError):
        return " ".join(str(error).split())[:400]
    return _describe(_leaf(error))


@functools.cache
def _offline_prefix() -> tuple[str, ...]:
    """`unshare -rn` where it works here (a private user and network namespace: the server
    sees no network, whatever the machine has), else nothing."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    try:
        done = subprocess.run([unshare, "-rn", "true"], capture_output=True, timeout=10,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (unshare, "-rn") if done.returncode == 0 else ()


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
