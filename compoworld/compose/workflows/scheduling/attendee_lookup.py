"""Find the people coming to an event."""

from compoworld.compose.steps import KEYS
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='attendee_lookup',
    domain='scheduling',
    purpose='find the people coming to an event',
    steps=(
        Step(READ, 'event'),
        Step(READ, 'person', KEYS),
    ),
)
