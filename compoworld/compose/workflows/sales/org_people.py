"""Find the people of a company."""

from compoworld.compose.steps import BY_SEGMENT, NEWEST
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='org_people',
    domain='sales',
    purpose='find the people of a company',
    steps=(
        Step(READ, 'org'),
        Step(READ, 'person', ('company',)),
    ),
    operators=(BY_SEGMENT, NEWEST),
)
