"""See a customer's orders."""

from compoworld.compose.steps import BY_SEGMENT, KEYS, LEAD, NOT_SALES
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='customer_orders',
    domain='commerce',
    purpose="see a customer's orders",
    steps=(
        LEAD,
        Step(READ, 'order', KEYS, avoid=NOT_SALES),
    ),
    operators=(BY_SEGMENT,),
)
