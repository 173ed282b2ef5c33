"""Welcome a new colleague to the team with a message."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, NEWEST, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="employee_welcome",
    domain="hr",
    purpose="welcome a new colleague",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="welcoming them to the team",
    subject="Welcome to the team",
    situation="hire",
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
