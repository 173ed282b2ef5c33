"""Look up who placed an order."""

from compoworld.compose.steps import BIGGEST, KEYS, SALE
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='order_customer',
    domain='commerce',
    purpose='look up who placed an order',
    steps=(
        SALE,
        Step(READ, 'person', KEYS),
    ),
    situation='reach',
    operators=(BIGGEST,),
)
