"""Record the payment of an invoice."""

from compoworld.compose.steps import QUOTES, book
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='invoice_payment',
    domain='billing',
    purpose='record the payment of an invoice',
    steps=(
        Step(READ, 'invoice', avoid=QUOTES),
        book(),
    ),
    situation='paid',
)
