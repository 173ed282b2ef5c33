"""Welcome a new colleague to the team with a message."""

from compoworld.compose.steps import COLLEAGUE, COLLEAGUE_MESSAGE
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
)
