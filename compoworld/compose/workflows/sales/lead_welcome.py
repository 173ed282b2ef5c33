"""Welcome a new contact."""

from compoworld.compose.steps import CUSTOMERS, send
from compoworld.compose.workflow import READ, Step, Workflow

# Whom a welcome alone goes to: a new lead or contact, never a customer we have already
# (the request "Tara should be set up in our other tools as well" then asked only for a
# note that they were "all set up", with nothing set up anywhere).
NEW = Step(READ, "person", words=CUSTOMERS,
           avoid=frozenset("customer customers client clients buyer buyers".split()))

WORKFLOW = Workflow(
    name='lead_welcome',
    domain='sales',
    purpose='welcome a new contact',
    steps=(
        NEW,
        send('email', 'phone', 'username'),
    ),
    gist='welcoming them aboard',
    situation='lead',
    guards=frozenset({'books_to_books'}),
)
