"""Book an onboarding call with a new customer."""

from compoworld.compose.steps import CLIENT, WHO
from compoworld.compose.workflow import MAKE, Purpose, Step, Workflow

WORKFLOW = Workflow(
    name="onboarding_call",
    domain="support",
    purpose="book an onboarding call with a customer",
    steps=(
        CLIENT,
        Step(MAKE, "event", ("email", "name", "phone"), party=WHO),
    ),
    situation="meeting",
    meeting=Purpose("an onboarding call", "Customer onboarding call",
                    ("{s} just signed up, and I'd like to walk them through getting started.",
                     "{s} needs help setting up our product.")),
)
