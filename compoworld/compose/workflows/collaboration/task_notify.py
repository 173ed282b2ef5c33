"""Tell someone about a task."""

from compoworld.compose.steps import DEALS, DUE_FIRST, PROJECTS, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='task_notify',
    domain='collaboration',
    purpose='tell someone about a task',
    steps=(
        Step(READ, 'task', avoid=PROJECTS | DEALS),  # a to-do, no whole project (a CI
        # project or a Jira project named by its lead is nobody's task to hear about)
        send('email', 'name', 'username', 'url'),
    ),
    gist='about the task',
    situation='task',
    operators=(DUE_FIRST,),
)
