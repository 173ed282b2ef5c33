"""Plan the follow-up of a meeting."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='meeting_task_message',
    domain='collaboration',
    purpose='plan the follow-up of a meeting',
    steps=(
        Step(READ, 'event'),
        Step(MAKE, 'task', ('email', 'name', 'time')),
        send('email', 'phone', 'name'),
    ),
    gist='with the follow-up from the meeting',
    situation='event',
)
