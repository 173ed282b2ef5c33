"""Add a company's contact and welcome them."""

from compoworld.compose.steps import BY_SEGMENT, NEWEST, send, tagged
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='org_contact_welcome',
    domain='sales',
    purpose="add a company's contact and welcome them",
    steps=(
        Step(READ, 'org'),
        Step(MAKE, 'person', ('company', 'email', 'phone')),
        send('email', 'phone'),
    ),
    gist='welcoming them aboard',
    situation='company',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("onboarding"), BY_SEGMENT, NEWEST),
)
