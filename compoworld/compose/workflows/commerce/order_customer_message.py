"""Reach the customer behind an order."""

from compoworld.compose.steps import KEYS, OLDEST, SALE, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='order_customer_message',
    domain='commerce',
    purpose='reach the customer behind an order',
    steps=(
        SALE,
        Step(READ, 'person', KEYS),
        send('email', 'phone'),
    ),
    gist='about their order',
    situation='order',
    guards=frozenset({'no_news'}),
    operators=(OLDEST,),
)
