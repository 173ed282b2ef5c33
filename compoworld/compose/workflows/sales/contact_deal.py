"""Open a deal or task for a contact."""

from compoworld.compose.steps import (
    BACK_OFFICE,
    BY_LEAD,
    CLIENT_WORK,
    CONTACT,
    DEALS,
    LEAD,
    NEWEST,
    PROJECTS,
    TODOS,
    tagged,
)
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='contact_deal',
    domain='sales',
    purpose='open a deal or task for a contact',
    steps=(
        LEAD,
        Step(MAKE, 'task', CONTACT, words=TODOS | DEALS, avoid=PROJECTS,
             title='Follow up with {s}', filed=CLIENT_WORK,
             unfiled=BACK_OFFICE),
    ),
    situation='deal',
    operators=(tagged("priority"), BY_LEAD, NEWEST),
)
