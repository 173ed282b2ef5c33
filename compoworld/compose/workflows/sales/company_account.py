"""Set up an account for a company."""

from compoworld.compose.steps import BY_SEGMENT, NEWEST, SUPPLIERS, tagged
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='company_account',
    domain='sales',
    purpose='set up an account for a company',
    steps=(
        Step(READ, 'org'),
        Step(MAKE, 'org', ('company', 'url', 'email', 'phone'), avoid=SUPPLIERS),
    ),
    situation='company',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("onboarding"), BY_SEGMENT, NEWEST),
)
