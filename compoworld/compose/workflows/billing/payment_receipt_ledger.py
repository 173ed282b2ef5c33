"""Send a receipt for a payment and book it."""

from compoworld.compose.steps import NOT_RECEIVED, book, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='payment_receipt_ledger',
    domain='billing',
    purpose='send a receipt for a payment and book it',
    steps=(
        Step(READ, 'payment', avoid=NOT_RECEIVED),
        send('email', 'phone', 'name'),
        book(),
    ),
    gist='with their receipt',
    situation='paid',
    guards=frozenset({'no_amount', 'unpaid'}),
)
