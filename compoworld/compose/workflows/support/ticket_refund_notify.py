"""Refund a customer and tell them."""

from compoworld.compose.steps import BY_PRIORITY, OLDEST, refund, send, tagged
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='ticket_refund_notify',
    domain='support',
    purpose='refund a customer and tell them',
    steps=(
        Step(READ, 'ticket'),
        Step(READ, 'payment', ('email', 'name')),
        refund(),
        send('email', 'phone'),
    ),
    gist='that their refund is on its way',
    situation='ticket',
    guards=frozenset({'ticket_closed'}),
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST),
)
