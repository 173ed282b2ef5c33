"""Find what we hold about a contact elsewhere."""

from compoworld.compose.steps import BY_SEGMENT, KEYS, LEAD
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='contact_lookup',
    domain='sales',
    purpose='find what we hold about a contact elsewhere',
    steps=(
        LEAD,
        Step(READ, 'person', KEYS),
    ),
    operators=(BY_SEGMENT,),
)
