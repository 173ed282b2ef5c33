"""Add a company's contact person."""

from compoworld.compose.steps import BY_SEGMENT, NEWEST, tagged
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='company_contact',
    domain='sales',
    purpose="add a company's contact person",
    steps=(
        Step(READ, 'org'),
        Step(MAKE, 'person', ('company', 'email', 'phone')),
    ),
    situation='company',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("onboarding"), BY_SEGMENT, NEWEST),
)
