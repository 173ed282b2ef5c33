"""Give a new colleague an account in another of the team's tools."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, NEW_COLLEAGUE, NEWEST, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="account_setup",
    domain="it",
    purpose="give a new colleague an account in another tool",
    steps=(
        COLLEAGUE,
        NEW_COLLEAGUE,
    ),
    opens=("{s} is starting with us and needs their accounts set up.",
           "IT has a new starter to set up: {s}."),
    trial=True,
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
