"""Book a meeting with a contact and tell them."""

from compoworld.compose.steps import CONTACT, LEAD, WHO, send
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='contact_meeting_message',
    domain='scheduling',
    purpose='book a meeting with a contact and tell them',
    steps=(
        LEAD,
        Step(MAKE, 'event', CONTACT, party=WHO),
        send('email', 'phone'),
    ),
    gist='inviting them to the meeting',
    situation='meeting',
)
