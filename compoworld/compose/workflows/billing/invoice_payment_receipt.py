"""Record an invoice's payment and send a receipt."""

from compoworld.compose.steps import SALES_INVOICE, book, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='invoice_payment_receipt',
    domain='billing',
    purpose="record an invoice's payment and send a receipt",
    steps=(
        Step(READ, 'invoice', avoid=SALES_INVOICE),
        book(),
        send('email', 'phone', 'name'),
    ),
    gist='with their receipt',
    situation='paid',
    guards=frozenset({'no_amount', 'unpaid'}),
)
