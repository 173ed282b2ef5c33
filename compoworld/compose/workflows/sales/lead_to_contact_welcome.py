"""Onboard a new customer and welcome them."""

from compoworld.compose.steps import BY_LEAD, LEAD, NEW_CONTACT, NEWEST, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name='lead_to_contact_welcome',
    domain='sales',
    purpose='onboard a new customer and welcome them',
    steps=(
        LEAD,
        NEW_CONTACT,
        send('email', 'phone', 'username'),
    ),
    gist='welcoming them aboard',
    situation='lead',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("priority"), BY_LEAD, NEWEST),
)
