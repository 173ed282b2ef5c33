"""Open a ticket for a customer and tell them."""

from compoworld.compose.steps import BY_SEGMENT, CONTACT, LEAD, send
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='contact_ticket_message',
    domain='support',
    purpose='open a ticket for a customer and tell them',
    steps=(
        LEAD,
        Step(MAKE, 'ticket', CONTACT),
        send('email', 'phone'),
    ),
    gist='that we opened a ticket for them',
    situation='problem',
    operators=(BY_SEGMENT,),
)
