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
    # (a lead who signed up is thanked, not "welcomed aboard": they are no customer yet)
    gist='thanking them for signing up with us',
    situation='lead',
    guards=frozenset({'books_to_books'}),
    operators=(tagged("priority"), BY_LEAD, NEWEST),
)
