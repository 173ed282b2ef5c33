"""Confirm a colleague's time off to them."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="leave_notify",
    domain="hr",
    purpose="confirm a colleague's time off",
    steps=(
        Step(READ, "leave"),
        send("email", "phone"),
    ),
    gist="confirming their time off",
    subject="Your time off is confirmed",
    says=("time off", "leave", "approved"),
    opens=("{s} was approved.",),
    guards=frozenset({"not_granted"}),
    trial=True,
)
