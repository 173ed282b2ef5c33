"""Hold an event at a place."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='venue_event',
    domain='scheduling',
    purpose='hold an event at a place',
    steps=(
        Step(READ, 'place'),
        Step(MAKE, 'event', ('address', 'city', 'postal_code', 'country')),
    ),
    situation='venue',
)
