"""Remind a colleague that their password is about to expire."""

from compoworld.compose.steps import COLLEAGUES, NOT_COLLEAGUES, SENDS, STATEMENTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

# A message to the colleague: no address added to an account (`user_add_email`), nor a
# task app's email record whose only address is its reply-to (`emails_create`).
MESSAGE = Step(MAKE, "message", ("email", "phone"), words=SENDS,
               avoid=STATEMENTS | {"emails"})

WORKFLOW = Workflow(
    name="password_expiry",
    domain="it",
    purpose="remind a colleague to change their expiring password",
    steps=(
        Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        MESSAGE,
    ),
    gist="reminding them that their password expires this week",
    opens=("Our password check flagged {s}: their password expires this week.",
           "{s} has not changed their password in a year, and it is about to expire."),
    trial=True,
)
