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
    # back on trial: a blind review read both of its tasks as garbled ("add it to Google
    # Drive as a file with its file and thumbnail"): a copy fills a file's link fields
    # (`webContentLink`, `iconLink`) by their type, not by what they hold
    trial=True,
)
