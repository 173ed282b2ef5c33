"""Invoice an order and tell the customer."""

from compoworld.compose.steps import INVOICE, SALE, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name='order_invoice_message',
    domain='billing',
    purpose='invoice an order and tell the customer',
    steps=(
        SALE,
        INVOICE,
        send('email', 'phone', 'name'),
    ),
    gist='that their invoice is ready',
    situation='bill',
    guards=frozenset({'called_off'}),
)
