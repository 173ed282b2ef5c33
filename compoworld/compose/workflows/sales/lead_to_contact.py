"""Add a new customer as a contact."""

from compoworld.compose.steps import BY_LEAD, LEAD, NEW_CONTACT, NEWEST, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name='lead_to_contact',
    domain='sales',
    purpose='add a new customer as a contact',
    steps=(
        LEAD,
        NEW_CONTACT,
    ),
    situation='lead',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("priority"), BY_LEAD, NEWEST),
)
