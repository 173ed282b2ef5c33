"""Tell someone about a task."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='task_notify',
    domain='collaboration',
    purpose='tell someone about a task',
    steps=(
        Step(READ, 'task'),
        send('email', 'name', 'username', 'url'),
    ),
    gist='about the task',
    situation='task',
)
