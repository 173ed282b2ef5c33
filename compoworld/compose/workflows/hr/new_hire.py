"""Onboard a new colleague."""

from compoworld.compose.steps import COLLEAGUE, NEW_COLLEAGUE
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name='new_hire',
    domain='hr',
    purpose='onboard a new colleague',
    steps=(
        COLLEAGUE,
        NEW_COLLEAGUE,
        Step(MAKE, 'event', ('email',)),
    ),
    situation='hire',
)
