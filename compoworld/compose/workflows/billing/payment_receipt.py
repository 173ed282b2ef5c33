"""Confirm a payment to the payer."""

from compoworld.compose.steps import NOT_RECEIVED, send
from compoworld.compose.workflow import READ, Operator, Step, Workflow

WORKFLOW = Workflow(
    name='payment_receipt',
    domain='billing',
    purpose='confirm a payment to the payer',
    steps=(
        Step(READ, 'payment', avoid=NOT_RECEIVED),
        send('email', 'phone', 'name'),
    ),
    gist='confirming we received the payment',
    situation='paid',
    guards=frozenset({'unpaid'}),
    # a receipt goes for every payment that went through
    operators=(Operator('select', field='status state',
                        rule='paid succeeded completed settled captured'),),
)
