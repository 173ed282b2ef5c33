"""Take on a new customer and plan the follow-up."""

from compoworld.compose.steps import (
    BACK_OFFICE,
    BY_LEAD,
    CLIENT_WORK,
    CONTACT,
    DEALS,
    LEAD,
    NEW_CONTACT,
    NEWEST,
    PROJECTS,
    TODOS,
    tagged,
)
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='lead_contact_task',
    domain='sales',
    purpose='take on a new customer and plan the follow-up',
    steps=(
        LEAD,
        NEW_CONTACT,
        Step(MAKE, 'task', CONTACT, words=TODOS | DEALS, avoid=PROJECTS,
             title='Follow up with {s}', filed=CLIENT_WORK,
             unfiled=BACK_OFFICE),
    ),
    situation='lead',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("follow-up"), BY_LEAD, NEWEST),
)
