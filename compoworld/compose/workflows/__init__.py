"""Every workflow definition: one module per workflow, `<domain>/<name>.py`, each with a
module-level `WORKFLOW` (compose/workflow.py). Adding a workflow is adding its file; the
engine finds it here and names none.

`WORKFLOWS` holds them sorted by name (a deterministic order, whatever the file system
lists first); `BY_NAME` maps each name to its definition; `DEFAULT_WORKFLOWS` leaves out
those on trial, which a run composes only when asked (`run_workflows`). A definition whose
file name, folder or guards disagree with what it says fails at import, naming the file.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType

from compoworld.compose.guards import GUARDS
from compoworld.compose.workflow import Workflow


class WorkflowError(ValueError):
    """A workflow definition that cannot be used, and which file it is."""


def collect(package: ModuleType) -> tuple[Workflow, ...]:
    """The workflows defined under `package` (a package of domain packages), sorted by
    name; raises `WorkflowError` naming the module of a definition that is wrong."""
    found: dict[str, tuple[Workflow, str]] = {}
    for module in _modules(package):
        workflow = getattr(module, "WORKFLOW", None)
        where = module.__name__
        if not isinstance(workflow, Workflow):
            raise WorkflowError(f"{where}: defines no WORKFLOW = Workflow(...)")
        domain, name = where.rsplit(".", 2)[-2:]
        if workflow.name != name or workflow.domain != domain:
            raise WorkflowError(f"{where}: holds workflow {workflow.name!r} of domain "
                                f"{workflow.domain!r}; its file is <domain>/<name>.py")
        if unknown := workflow.guards - GUARDS.keys():
            raise WorkflowError(f"{where}: unknown guards {sorted(unknown)}; "
                                f"known: {', '.join(GUARDS)}")
        if workflow.name in found:
            raise WorkflowError(f"{where}: workflow {workflow.name!r} is defined twice "
                                f"(also in {found[workflow.name][1]})")
        found[workflow.name] = (workflow, where)
    return tuple(found[name][0] for name in sorted(found))


def _modules(package: ModuleType) -> Iterable[ModuleType]:
    """The definition modules of `package`: every module inside its domain packages."""
    for domain in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if not domain.ispkg:
            continue
        sub = importlib.import_module(domain.name)
        for info in sorted(pkgutil.iter_modules(sub.__path__, sub.__name__ + "."),
                           key=lambda i: i.name):
            if not info.ispkg:
                yield importlib.import_module(info.name)


WORKFLOWS: tuple[Workflow, ...] = collect(importlib.import_module(__name__))
BY_NAME: dict[str, Workflow] = {workflow.name: workflow for workflow in WORKFLOWS}
# What a run composes by default: every workflow but those on trial (`Workflow.trial`).
DEFAULT_WORKFLOWS: tuple[Workflow, ...] = tuple(w for w in WORKFLOWS if not w.trial)


def run_workflows(trial: bool) -> tuple[Workflow, ...]:
    """The workflows a run composes: with `trial`, those on trial as well."""
    return WORKFLOWS if trial else DEFAULT_WORKFLOWS
