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
    # as a later part, it hands a newcomer their first task: "welcome them aboard and
    # hand them a task" is onboarding, where "tell a customer an item is back in stock and
    # hand them a task" was two errands glued together
    after=("welcome", "onboard"),
)
