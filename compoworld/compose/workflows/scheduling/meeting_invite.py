"""Set up a meeting with someone."""

from compoworld.compose.steps import LEAD, WHO
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='meeting_invite',
    domain='scheduling',
    purpose='set up a meeting with someone',
    steps=(
        LEAD,
        Step(MAKE, 'event', ('email', 'name', 'phone'), party=WHO),
    ),
    situation='meeting',
)
