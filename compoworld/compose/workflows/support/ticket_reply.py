"""Answer a customer's ticket."""

from compoworld.compose.steps import BY_PRIORITY, OLDEST, send, tagged
from compoworld.compose.workflow import READ, Operator, Step, Workflow

WORKFLOW = Workflow(
    name='ticket_reply',
    domain='support',
    purpose="answer a customer's ticket",
    steps=(
        Step(READ, 'ticket'),
        send('email', 'phone', 'name'),
    ),
    gist='letting them know we are looking into it',
    says=('looking into', 'look into', 'working on'),
    situation='ticket',
    guards=frozenset({'ticket_closed'}),
    # a support lead answers every ticket still waiting ("every ticket whose status is
    # open"), never the closed ones
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST,
               Operator('select', field='status state',
                        rule='open new pending'),),
)
