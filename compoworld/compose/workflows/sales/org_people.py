"""Find the people of a company."""

from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='org_people',
    domain='sales',
    purpose='find the people of a company',
    steps=(
        Step(READ, 'org'),
        Step(READ, 'person', ('company',)),
    ),
)
