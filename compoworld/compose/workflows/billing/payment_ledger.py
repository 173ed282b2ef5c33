"""Record a payment in the books."""

from compoworld.compose.steps import book
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='payment_ledger',
    domain='billing',
    purpose='record a payment in the books',
    steps=(
        Step(READ, 'payment'),
        book(),
    ),
    situation='paid',
)
