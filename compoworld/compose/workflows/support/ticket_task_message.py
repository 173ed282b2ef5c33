"""Plan the fix for a ticket and tell the customer."""

from compoworld.compose.steps import BY_PRIORITY, OLDEST, send, tagged
from compoworld.compose.workflow import MAKE, READ, Operator, Step, Workflow

WORKFLOW = Workflow(
    name='ticket_task_message',
    domain='support',
    purpose='plan the fix for a ticket and tell the customer',
    steps=(
        Step(READ, 'ticket'),
        Step(MAKE, 'task', ('email', 'name', 'url')),
        send('email', 'phone'),
    ),
    gist='that we are working on a fix',
    says=('fix', 'working on'),
    situation='ticket',
    guards=frozenset({'ticket_closed'}),
    # every ticket still waiting gets its fix planned
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST,
               Operator('select', field='status state',
                        rule='open new pending'),),
)
