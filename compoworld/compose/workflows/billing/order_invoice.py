"""Invoice a customer's order."""

from compoworld.compose.steps import INVOICE, SALE
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name='order_invoice',
    domain='billing',
    purpose="invoice a customer's order",
    steps=(
        SALE,
        INVOICE,
    ),
    situation='bill',
    guards=frozenset({'called_off'}),
)
