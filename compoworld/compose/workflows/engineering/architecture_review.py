"""Book an architecture review with an engineer."""

from compoworld.compose.steps import ENGINEER, TEAM_MEETING
from compoworld.compose.workflow import Purpose, Workflow

WORKFLOW = Workflow(
    name="architecture_review",
    domain="engineering",
    purpose="book an architecture review with an engineer",
    steps=(
        ENGINEER,
        TEAM_MEETING,
    ),
    situation="meeting",
    meeting=Purpose("an architecture review of the new billing service",
                    "Billing service architecture review",
                    ("{s} wrote the design for the new billing service, and it needs a review.",
                     "Before we build the new billing service, I'd like to review its design "
                     "with {s}.")),
)
