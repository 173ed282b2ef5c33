"""Welcome a new colleague to the team with a message."""

from compoworld.compose.steps import COLLEAGUE, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="employee_welcome",
    domain="hr",
    purpose="welcome a new colleague",
    steps=(
        COLLEAGUE,
        send("email", "phone", "name"),
    ),
    gist="welcoming them to the team",
    subject="Welcome to the team",
    situation="hire",
    guards=frozenset({"gone"}),
)
