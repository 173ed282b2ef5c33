"""Turn a message into a task."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='message_task',
    domain='collaboration',
    purpose='turn a message into a task',
    steps=(
        Step(READ, 'message'),
        Step(MAKE, 'task', ('email', 'name', 'url')),
    ),
    situation='message',
)
