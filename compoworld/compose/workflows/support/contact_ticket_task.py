"""Open a ticket for a customer and plan the fix."""

from compoworld.compose.steps import BY_SEGMENT, CONTACT, DEALS, LEAD, PROJECTS, SUPPORT_WORK, TODOS
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='contact_ticket_task',
    domain='support',
    purpose='open a ticket for a customer and plan the fix',
    steps=(
        LEAD,
        Step(MAKE, 'ticket', CONTACT),
        Step(MAKE, 'task', CONTACT, words=TODOS, avoid=PROJECTS | DEALS,
             title='Fix the problem reported by {s}', filed=SUPPORT_WORK),
    ),
    situation='problem',
    operators=(BY_SEGMENT,),
)
