"""Welcome a new contact."""

from compoworld.compose.steps import BY_LEAD, NEWEST, PROSPECT, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name='lead_welcome',
    domain='sales',
    purpose='welcome a new contact',
    steps=(
        PROSPECT,  # a welcome alone goes to someone new, no customer we have
        send('email', 'phone', 'username'),
    ),
    gist='welcoming them aboard',
    situation='lead',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("priority"), BY_LEAD, NEWEST),
)
