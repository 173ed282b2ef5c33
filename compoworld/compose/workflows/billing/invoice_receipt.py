"""Send a customer their receipt."""

from compoworld.compose.steps import SALES_INVOICE, send
from compoworld.compose.workflow import READ, Operator, Step, Workflow

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
    # a receipt goes for every invoice paid
    operators=(Operator('select', field='status state',
                        rule='paid settled'),),
)
