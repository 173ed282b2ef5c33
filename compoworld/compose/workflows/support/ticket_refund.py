"""Refund the customer of a ticket."""

from compoworld.compose.steps import BY_PRIORITY, OLDEST, refund, tagged
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='ticket_refund',
    domain='support',
    purpose='refund the customer of a ticket',
    steps=(
        Step(READ, 'ticket'),
        Step(READ, 'payment', ('email', 'name')),
        refund(),
    ),
    situation='ticket',
    guards=frozenset({'ticket_closed'}),
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST),
)
