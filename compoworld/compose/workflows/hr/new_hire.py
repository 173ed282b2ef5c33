"""Onboard a new colleague."""

from compoworld.compose.steps import COLLEAGUES, CONTACT, NOT_COLLEAGUES
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='new_hire',
    domain='hr',
    purpose='onboard a new colleague',
    steps=(
        Step(READ, 'person', words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        Step(MAKE, 'person', CONTACT, words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        Step(MAKE, 'event', ('email',)),
    ),
    situation='hire',
)
