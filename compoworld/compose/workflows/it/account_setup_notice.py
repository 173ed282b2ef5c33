"""Give a new colleague an account in another tool, and tell them it is ready."""

from compoworld.compose.steps import COLLEAGUES, CONTACT, NOT_COLLEAGUES, SENDS, STATEMENTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

# A message to the colleague: no address added to an account (`user_add_email`), nor a
# task app's email record whose only address is its reply-to (`emails_create`).
MESSAGE = Step(MAKE, "message", ("email", "phone"), words=SENDS,
               avoid=STATEMENTS | {"emails"})

WORKFLOW = Workflow(
    name="account_setup_notice",
    domain="it",
    purpose="set up a new colleague's account and tell them",
    steps=(
        Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        Step(MAKE, "person", CONTACT, words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        MESSAGE,
    ),
    gist="that their new account is ready",
    opens=("{s} is starting with us and needs their accounts set up.",),
    trial=True,
)
