"""Check what a customer has paid."""

from compoworld.compose.steps import BY_SEGMENT, KEYS, LEAD, NOT_PAID
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='customer_payments',
    domain='billing',
    purpose='check what a customer has paid',
    steps=(
        LEAD,
        Step(READ, 'payment', KEYS, avoid=NOT_PAID),
    ),
    operators=(BY_SEGMENT,),
)
