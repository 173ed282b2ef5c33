"""notebooks/explore.ipynb runs headless against a small real run and prints the store's numbers."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from flows.rollout import rollout_flow
from storage.catalog import run_query
from storage.store import Store
from tests.conftest import REPO
from tests.flows.helpers import composed_builtin_store

pytestmark = pytest.mark.slow

NOTEBOOK = REPO / "notebooks" / "explore.ipynb"
RUN = "nb"


@pytest.fixture(scope="module")
def rolled(prefect_harness, tmp_path_factory) -> Store:
    store = composed_builtin_store(tmp_path_factory.mktemp("notebook"), RUN, tasks=12,
                                   per_shard=6)
    home = str(store.home)
    rollout_flow(run_id=RUN, policy="reference", mode="gateway", group_size=2,
                 tasks_per_shard=6, home=home)
    rollout_flow(run_id=RUN, policy="noisy", mode="gateway", group_size=6, tasks_per_shard=6,
                 home=home)
    return store


def execute(home: Path, run_id: str | None, scratch: Path) -> nbformat.NotebookNode:
    """The notebook executed in a fresh `python3` kernel (which inherits this environment)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("COMPOWORLD_HOME", str(home))
        if run_id is None:
            env.delenv("COMPOWORLD_RUN", raising=False)
        else:
            env.setenv("COMPOWORLD_RUN", run_id)
        env.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
        env.setenv("JUPYTER_RUNTIME_DIR", str(scratch / "runtime"))
        env.setenv("IPYTHONDIR", str(scratch / "ipython"))
        NotebookClient(nb, timeout=300, startup_timeout=180, kernel_name="python3",
                       resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return nb


def outputs(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [output for cell in nb.cells if cell.cell_type == "code" for output in cell.outputs]


def printed(nb: nbformat.NotebookNode) -> str:
    return "".join(o.text for o in outputs(nb) if o.output_type == "stream")


@pytest.fixture(scope="module")
def executed(rolled: Store, tmp_path_factory) -> nbformat.NotebookNode:
    # No COMPOWORLD_RUN: the notebook finds the run itself (the only one with tasks).
    return execute(rolled.home, None, tmp_path_factory.mktemp("kernel"))


def test_the_committed_notebook_has_no_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def test_every_cell_runs_and_every_section_plots(executed):
    assert [o for o in outputs(executed) if o.output_type == "error"] == []
    images = [o for o in outputs(executed) if "image/png" in o.get("data", {})]
    plots = [c for c in executed.cells if c.cell_type == "code" and "plt.show()" in c.source]
    assert len(images) == len(plots) >= 5  # one or more per section, none skipped as empty
    assert f"run: {RUN}" in printed(executed)


def test_printed_counts_match_the_store(executed, rolled: Store):
    text = printed(executed)
    for table, label in (("tasks", "tasks"), ("rollouts", "rollouts")):
        _, rows = run_query(rolled, f"select count(*) from {table} where run_id = $run",
                            {"run": RUN})
        assert rows[0][0] > 0
        assert re.search(rf"^{label}: (\d+)$", text, re.M).group(1) == str(rows[0][0])
    _, rows = run_query(rolled, "select count(*) from services where run_id = $run",
                        {"run": RUN})
    assert re.search(r"^\s*services\s+(\d+)$", text, re.M).group(1) == str(rows[0][0])


def test_an_empty_store_prints_no_rows_instead_of_failing(tmp_path):
    nb = execute(tmp_path / "empty", None, tmp_path)
    assert [o for o in outputs(nb) if o.output_type == "error"] == []
    text = printed(nb)
    assert "run: None" in text and "tasks: 0" in text and text.count("no rows") >= 5
