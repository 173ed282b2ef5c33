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
