"""Update a customer about their order."""

from compoworld.compose.steps import OLDEST, SALE, send
from compoworld.compose.workflow import Operator, Workflow

WORKFLOW = Workflow(
    name='order_followup',
    domain='commerce',
    purpose='update a customer about their order',
    steps=(
        SALE,
        send('email', 'phone', 'name'),
    ),
    gist='with an update on their order',
    situation='order',
    guards=frozenset({'no_news'}),
    # every order at one stage gets its update ("every order whose status is delayed")
    operators=(OLDEST,
               Operator('select', field='status state',
                        rule='shipped dispatched processing delayed backordered on_hold'),),
)
