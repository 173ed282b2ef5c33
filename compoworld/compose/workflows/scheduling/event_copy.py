"""Put an event in another calendar."""

from compoworld.compose.steps import APPOINTMENTS, EVERY_VALID
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='event_copy',
    domain='scheduling',
    purpose='put an event in another calendar',
    steps=(
        Step(READ, 'event'),
        # (no webinar: a patient's appointment copied as a Zoom webinar is a broadcast of it)
        Step(MAKE, 'event', ('time', 'name', 'email', 'address', 'city'),
             avoid=APPOINTMENTS | {'webinar', 'webinars'}),
    ),
    situation='copy',
    guards=frozenset({'half_span', 'past_copy'}),
    operators=(EVERY_VALID,),
)
