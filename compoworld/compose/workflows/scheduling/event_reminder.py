"""Remind people of an event."""

from compoworld.compose.steps import EVERY_VALID, NEXT_UP, send
from compoworld.compose.workflow import READ, Operator, Step, Workflow

WORKFLOW = Workflow(
    name='event_reminder',
    domain='scheduling',
    purpose='remind people of an event',
    steps=(
        Step(READ, 'event'),
        send('email', 'phone', 'name', 'time', 'url'),
    ),
    gist='reminding them of the event',
    situation='event',
    guards=frozenset({'event_over'}),
    # a reminder goes to every booking still to come that was confirmed
    operators=(EVERY_VALID, NEXT_UP,
               Operator('select', field='status state',
                        rule='confirmed scheduled booked upcoming accepted'),),
)
