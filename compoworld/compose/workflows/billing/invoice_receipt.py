"""Send a customer their receipt."""

from compoworld.compose.steps import SALES_INVOICE, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='invoice_receipt',
    domain='billing',
    purpose='send a customer their receipt',
    steps=(
        Step(READ, 'invoice', avoid=SALES_INVOICE),
        send('email', 'phone', 'name'),
    ),
    gist='with their receipt',
    situation='paid',
    guards=frozenset({'no_amount', 'unpaid'}),
)
