"""Open a ticket from a customer's message."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='message_to_ticket',
    domain='support',
    purpose="open a ticket from a customer's message",
    steps=(
        Step(READ, 'message'),
        Step(MAKE, 'ticket', ('email', 'name', 'phone')),
    ),
    situation='message',
)
