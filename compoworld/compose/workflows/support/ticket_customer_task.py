"""Find the customer behind a ticket and plan a fix."""

from compoworld.compose.steps import (
    BY_PRIORITY,
    CONTACT,
    DEALS,
    KEYS,
    OLDEST,
    PROJECTS,
    SUPPORT_WORK,
    TODOS,
    tagged,
)
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='ticket_customer_task',
    domain='support',
    purpose='find the customer behind a ticket and plan a fix',
    steps=(
        Step(READ, 'ticket'),
        Step(READ, 'person', KEYS),
        Step(MAKE, 'task', CONTACT, words=TODOS, avoid=PROJECTS | DEALS,
             title='Fix the problem reported by {s}', filed=SUPPORT_WORK),
    ),
    situation='ticket',
    guards=frozenset({'ticket_closed'}),
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST),
)
