"""Reach the customer behind a ticket."""

from compoworld.compose.steps import BY_PRIORITY, KEYS, OLDEST, send, tagged
from compoworld.compose.workflow import READ, Operator, Step, Workflow

WORKFLOW = Workflow(
    name='ticket_customer_message',
    domain='support',
    purpose='reach the customer behind a ticket',
    steps=(
        Step(READ, 'ticket'),
        Step(READ, 'person', KEYS),
        send('email', 'phone'),
    ),
    gist='about their ticket',
    situation='ticket',
    guards=frozenset({'ticket_closed'}),
    # every ticket still waiting is answered
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST,
               Operator('select', field='status state',
                        rule='open new pending'),),
)
