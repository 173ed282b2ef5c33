"""Write to the people coming to an event."""

from compoworld.compose.steps import KEYS, NEXT_UP, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='attendee_message',
    domain='scheduling',
    purpose='write to the people coming to an event',
    steps=(
        Step(READ, 'event'),
        Step(READ, 'person', KEYS),
        send('email', 'phone'),
    ),
    gist='about the event',
    situation='event',
    operators=(NEXT_UP,),
)
