"""Hand a task to someone."""

from compoworld.compose.steps import BY_SEGMENT, CONTACT
from compoworld.compose.workflow import CHANGE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='assign_task',
    domain='collaboration',
    purpose='hand a task to someone',
    steps=(
        Step(READ, 'person'),
        Step(CHANGE, 'task', CONTACT),
    ),
    situation='task',
    operators=(BY_SEGMENT,),
)
