"""Remind someone to sign a document sent to them for signature."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="envelope_reminder",
    domain="documents",
    purpose="remind a signer to sign",
    steps=(
        Step(READ, "envelope"),
        send("email", "name"),
    ),
    gist="reminding them to sign the document",
    subject="A document is waiting for your signature",
    says=("sign", "signature", "signing"),
    opens=("{s} is still waiting for a signature.", "{s} has not been signed yet."),
    guards=frozenset({"already_done"}),
    trial=True,
)
