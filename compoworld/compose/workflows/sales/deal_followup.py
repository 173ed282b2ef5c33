"""Follow up on a deal."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='deal_followup',
    domain='sales',
    purpose='follow up on a deal',
    steps=(
        Step(READ, 'task'),
        send('email', 'phone', 'name'),
    ),
    gist='following up on the deal',
    situation='deal',
)
