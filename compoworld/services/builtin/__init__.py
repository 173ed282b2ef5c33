"""Hand-written reference services: the tests' known-good world and the offline default.

Ten typed toolkits in the tau2-bench style (`toolkit.Toolkit`): email, calendar, crm, chat,
files, payments, issues, sheets, maps and sms. Their records share interface field names
(email, phone, first_name, city, amount, currency, url, filename, ...) so the dependency
graph links them across services; `example_state(name, seed)` seeds every service from
one pool of people (`common.people(seed)`), so the same person shows up everywhere.
"""

from __future__ import annotations

import random

from compoworld.services.builtin.calendar import CalendarToolkit
from compoworld.services.builtin.chat import ChatToolkit
from compoworld.services.builtin.common import WORLD, people, world_record
from compoworld.services.builtin.crm import CrmToolkit
from compoworld.services.builtin.email import EmailToolkit
from compoworld.services.builtin.files import FilesToolkit
from compoworld.services.builtin.issues import IssuesToolkit
from compoworld.services.builtin.maps import MapsToolkit
from compoworld.services.builtin.payments import PaymentsToolkit
from compoworld.services.builtin.sheets import SheetsToolkit
from compoworld.services.builtin.sms import SmsToolkit
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.services.runtime import Service
from compoworld.specs.records import ServiceSpec
from compoworld.world.state import State

BUILTIN_SERVICES: dict[str, type[Toolkit]] = {
    cls.name: cls
    for cls in (EmailToolkit, CalendarToolkit, CrmToolkit, ChatToolkit, FilesToolkit,
                PaymentsToolkit, IssuesToolkit, SheetsToolkit, MapsToolkit, SmsToolkit)
}

__all__ = ["BUILTIN_SERVICES", "Toolkit", "build_builtin", "builtin_spec", "example_state",
           "tool"]


def _toolkit(name: str) -> type[Toolkit]:
    try:
        return BUILTIN_SERVICES[name]
    except KeyError:
        known = ", ".join(sorted(BUILTIN_SERVICES))
        raise KeyError(f"no built-in service named {name!r}; known: {known}") from None


def builtin_spec(name: str) -> ServiceSpec:
    """The spec of a built-in service (a fresh copy each call)."""
    return _toolkit(name).spec()


def build_builtin(name: str, state: State | None = None) -> Service:
    """A built-in service over `state` (an empty one when None); every tool is `builtin`."""
    return _toolkit(name).build(state)


def example_state(name: str, seed: int) -> State:
    """A small seeded start state for a built-in service (same seed, same state).

    Holds the service's collections plus the `world` record (fixed `now`, the user), all
    drawn from `random.Random(seed)` and the shared pool `people(seed)`.
    """
    cls = _toolkit(name)
    state = State({collection: dict(schema)
                   for collection, schema in cls.spec().resources.items()})
    state.put(WORLD, world_record(seed))
    cls(state).seed(random.Random(seed), people(seed))
    return state
