"""Open a ticket for a customer."""

from compoworld.compose.steps import BY_SEGMENT, CONTACT, LEAD
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='customer_ticket',
    domain='support',
    purpose='open a ticket for a customer',
    steps=(
        LEAD,
        Step(MAKE, 'ticket', CONTACT),
    ),
    situation='problem',
    operators=(BY_SEGMENT,),
)
