"""Welcome a new colleague to the team with a message."""

from compoworld.compose.steps import COLLEAGUES, NOT_COLLEAGUES, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="employee_welcome",
    domain="hr",
    purpose="welcome a new colleague",
    steps=(
        Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        send("email", "phone", "name"),
    ),
    gist="welcoming them to the team",
    situation="hire",
)
