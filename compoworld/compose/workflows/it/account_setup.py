"""Give a new colleague an account in another of the team's tools."""

from compoworld.compose.steps import COLLEAGUES, CONTACT, NOT_COLLEAGUES
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="account_setup",
    domain="it",
    purpose="give a new colleague an account in another tool",
    steps=(
        Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        Step(MAKE, "person", CONTACT, words=COLLEAGUES, avoid=NOT_COLLEAGUES),
    ),
    opens=("{s} is starting with us and needs their accounts set up.",
           "IT has a new starter to set up: {s}."),
    trial=True,
)
