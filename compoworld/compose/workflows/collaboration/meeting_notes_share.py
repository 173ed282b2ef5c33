"""Share a meeting's notes."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='meeting_notes_share',
    domain='collaboration',
    purpose="share a meeting's notes",
    steps=(
        Step(READ, 'event'),
        Step(MAKE, 'document'),
        send('url', 'filename'),
    ),
    gist='sharing the meeting notes',
    says=('notes',),
    situation='event',
)
