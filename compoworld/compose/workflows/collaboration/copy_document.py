"""Keep a copy of a document elsewhere."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='copy_document',
    domain='collaboration',
    purpose='keep a copy of a document elsewhere',
    steps=(
        Step(READ, 'document'),
        Step(MAKE, 'document', ('url', 'filename', 'name')),
    ),
    situation='doc',
)
