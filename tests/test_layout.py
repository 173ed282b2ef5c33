"""The layout's one hard rule: the library and the store never import the orchestrator."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import compoworld
import storage


def modules(package) -> list[str]:
    return [
        info.name
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + ".")
    ]


def test_library_and_storage_never_import_prefect_flows_tasks_or_models():
    names = [*modules(compoworld), *modules(storage)]
    assert "compoworld.cli" in names and "storage.store" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'prefect', 'prefect_dask', 'flows', 'tasks', 'models'})\n"
        "print(bad)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def _imports_of(package: str) -> dict[str, set[str]]:
    """Module -> the compoworld modules it imports anywhere (top level or in a function)."""
    import ast
    from pathlib import Path

    root = Path(compoworld.__file__).parent
    out: dict[str, set[str]] = {}
    for path in sorted((root / package).rglob("*.py")):
        tree = ast.parse(path.read_text())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        out[str(path.relative_to(root.parent))] = {m for m in found
                                                   if m.startswith("compoworld.")}
    return out


def test_the_world_and_the_world_model_sit_below_the_services_and_the_graph():
    """Stage order: specs -> world -> worldmodel -> services -> graph -> compose. The world
    and the world model never import services (the old services <-> worldmodel cycle), the
    graph never imports services or compose (the old graph <-> services cycle); the graph's
    semantic types are a leaf every stage may use."""
    rules = {
        "world": ("compoworld.services", "compoworld.worldmodel", "compoworld.compose",
                  "compoworld.graph.depgraph", "compoworld.rollout"),
        "worldmodel": ("compoworld.services", "compoworld.compose", "compoworld.rollout"),
        "graph": ("compoworld.services", "compoworld.compose", "compoworld.world",
                  "compoworld.worldmodel", "compoworld.rollout"),
    }
    bad = []
    for package, banned in rules.items():
        for module, imported in _imports_of(package).items():
            bad += [(module, name) for name in sorted(imported) if name.startswith(banned)]
    assert bad == []
    semtypes = _imports_of("graph")["compoworld/graph/semtypes.py"]
    assert semtypes == set()
    # roles (the business ontology) sits on the semantic types alone: the selection uses it
    assert _imports_of("graph")["compoworld/graph/roles.py"] <= {"compoworld.graph.semtypes"}


def test_the_old_homes_of_the_world_are_gone():
    import importlib.util

    for name in ("compoworld.graph.words", "compoworld.graph.values", "compoworld.graph.walk",
                 "compoworld.graph.schemavalues", "compoworld.graph.fieldsources",
                 "compoworld.graph.patterns", "compoworld.services.world"):
        assert importlib.util.find_spec(name) is None, name
