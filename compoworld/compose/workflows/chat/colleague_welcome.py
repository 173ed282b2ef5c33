"""Welcome a new colleague with a direct message."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, NEWEST, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="colleague_welcome",
    domain="chat",
    purpose="welcome a new colleague",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="welcoming them to the team",
    subject="Welcome to the team",
    opens=("{s} just joined our team.", "{s} starts with us today."),
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
