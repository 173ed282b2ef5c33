"""Small parts of walks for tests of workflows, guards and step fits."""

from __future__ import annotations

from compoworld.compose.records import Binding, GoldCall
from compoworld.graph.depgraph import ToolNode


def reader(name: str, resource: str) -> ToolNode:
    """A read tool `name` (`app__list_contacts`) over `resource` listing emails."""
    return ToolNode(name=name, service=name.split("__")[0], effect="read",
                    implementation="compiled", resource=resource, params={},
                    required=(), outputs={"[].email": "email"})


def read_then_message(record: dict) -> list[GoldCall]:
    """The record read (given an email), and a message that took that email from it: the
    calls a guard reads the followed record of."""
    record = {**record, "email": "ana.ruiz@acme.com"}
    return [GoldCall(tool="app__list_records", service="app", effect="read", arguments={},
                     bindings={}, result={"data": [record]}),
            GoldCall(tool="mail__send_email", service="mail", effect="create",
                     arguments={"to": record["email"]},
                     bindings={"to": Binding(kind="hidden", type="email", step=0,
                                             field="data[].email", path="data[0].email")},
                     result={"id": "m1"})]
