"""Share a document with someone."""

from compoworld.compose.steps import send_document
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='share_document',
    domain='collaboration',
    purpose='share a document with someone',
    steps=(
        Step(READ, 'document'),
        send_document(),
    ),
    gist='sharing the document',
    situation='doc',
)
