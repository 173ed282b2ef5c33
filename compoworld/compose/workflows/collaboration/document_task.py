"""Turn a document into a task."""

from compoworld.compose.steps import DEALS, PROJECTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='document_task',
    domain='collaboration',
    purpose='turn a document into a task',
    steps=(
        Step(READ, 'document'),
        # the document's title, link or file into a to-do: no whole project, no deal
        Step(MAKE, 'task', ('title', 'url', 'filename', 'name'), avoid=PROJECTS | DEALS),
    ),
    situation='doc',
    # on trial: once more apps could take its task, a blind review read all three of its
    # tasks as glued (a Salesloft task or a Linear milestone named after an attachment)
    trial=True,
)
