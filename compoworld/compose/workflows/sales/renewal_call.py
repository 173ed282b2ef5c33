"""Book a call with a customer about renewing their contract."""

from compoworld.compose.steps import CLIENT, WHO
from compoworld.compose.workflow import MAKE, Purpose, Step, Workflow

WORKFLOW = Workflow(
    name="renewal_call",
    domain="sales",
    purpose="book a renewal call with a customer",
    steps=(
        CLIENT,
        Step(MAKE, "event", ("email", "name", "phone"), party=WHO),
    ),
    situation="meeting",
    meeting=Purpose("a renewal call", "Contract renewal call",
                    ("{s}'s contract is up for renewal next month.",
                     "I'd like to talk to {s} about renewing their contract.")),
)
