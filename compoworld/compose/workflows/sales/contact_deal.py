"""Open a deal or task for a contact."""

from compoworld.compose.steps import BY_LEAD, CONTACT, DEALS, LEAD, NEWEST, PROJECTS, TODOS
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='contact_deal',
    domain='sales',
    purpose='open a deal or task for a contact',
    steps=(
        LEAD,
        Step(MAKE, 'task', CONTACT, words=TODOS | DEALS, avoid=PROJECTS,
             title='Follow up with {s}'),
    ),
    situation='deal',
    operators=(BY_LEAD, NEWEST),
)
