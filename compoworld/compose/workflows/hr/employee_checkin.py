"""Check in with a new colleague at the end of their first week."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, NEWEST
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="employee_checkin",
    domain="hr",
    purpose="check in with a new colleague",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="checking in on how their first week went",
    tells=("first week",),
    subject="How is your first week going?",
    says=("week", "settling", "settled"),
    opens=("{s} is finishing their first week with us.",
           "{s} joined us last week, and we'd like to hear how it's going."),
    guards=frozenset({"gone"}),
    # a check-in with a team, or with the colleagues who joined last (the new ones)
    operators=(BY_TEAM, NEWEST),
)
