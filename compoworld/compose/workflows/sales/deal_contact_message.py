"""Follow up on a deal with the contact it is for, found in the CRM by their email."""

from compoworld.compose.steps import BIGGEST, DEAL, KEYS, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="deal_contact_message",
    domain="sales",
    purpose="follow up with the contact behind a deal",
    steps=(
        DEAL,
        Step(READ, "person", KEYS),  # who the deal is with, by their email
        send("email", "phone"),
    ),
    gist="following up on the deal",
    subject="Following up",
    says=("deal", "follow up", "following up"),
    situation="deal",
    trial=True,
    operators=(BIGGEST,),
)
