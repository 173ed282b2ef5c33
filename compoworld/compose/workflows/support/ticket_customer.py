"""Look up the customer behind a ticket."""

from compoworld.compose.steps import BY_PRIORITY, KEYS, OLDEST, tagged
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='ticket_customer',
    domain='support',
    purpose='look up the customer behind a ticket',
    steps=(
        Step(READ, 'ticket'),
        Step(READ, 'person', KEYS),
    ),
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST),
)
