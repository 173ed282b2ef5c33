"""Share a document and plan the work on it."""

from compoworld.compose.steps import send_document
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='document_message_task',
    domain='collaboration',
    purpose='share a document and plan the work on it',
    steps=(
        Step(READ, 'document'),
        send_document(),
        Step(MAKE, 'task', ('url', 'filename', 'email', 'name')),
    ),
    gist='sharing the document',
    situation='doc',
)
