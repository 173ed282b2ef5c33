"""Remind a prospect to sign the NDA we sent them."""

from compoworld.compose.steps import BY_COMPANY, PROSPECT, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="nda_signature_reminder",
    domain="documents",
    purpose="remind a prospect to sign the NDA",
    steps=(
        PROSPECT,
        send("email", "phone", "name"),
    ),
    gist="reminding them to sign the NDA we sent before our next meeting",
    subject="A reminder to sign the NDA",
    says=("NDA", "sign", "signature"),
    tells=("NDA",),
    opens=("{s} has not signed the NDA we sent them yet.",
           "We can't share the proposal with {s} until the NDA is signed."),
    # (a company signs an NDA through its people: everyone at it is reminded)
    operators=(BY_COMPANY,),
)
