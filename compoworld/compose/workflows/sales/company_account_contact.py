"""Set up a company and its contact person."""

from compoworld.compose.steps import BY_SEGMENT, NEWEST, tagged
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='company_account_contact',
    domain='sales',
    purpose='set up a company and its contact person',
    steps=(
        Step(READ, 'org'),
        Step(MAKE, 'org', ('company', 'url', 'email', 'phone')),
        Step(MAKE, 'person', ('company', 'email', 'phone')),
    ),
    situation='company',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("onboarding"), BY_SEGMENT, NEWEST),
)
