"""Turn a document into a task."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='document_task',
    domain='collaboration',
    purpose='turn a document into a task',
    steps=(
        Step(READ, 'document'),
        Step(MAKE, 'task', ('url', 'filename', 'name')),
    ),
    situation='doc',
)
