"""Thank the people we met for their time, after the meeting."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="meeting_followup_thanks",
    domain="scheduling",
    purpose="thank a meeting's guests afterwards",
    steps=(
        Step(READ, "event"),
        send("email", "phone", "name"),
    ),
    gist="thanking them for their time",
    subject="Thank you for your time",
    says=("thank", "thanks"),
    situation="event",
    guards=frozenset({"ahead"}),
)
