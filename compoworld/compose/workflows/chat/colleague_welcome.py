"""Welcome a new colleague with a direct message."""

from compoworld.compose.steps import COLLEAGUES, NOT_COLLEAGUES, SENDS, STATEMENTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

# A message to the colleague: no address added to an account (`user_add_email`), nor a
# task app's email record whose only address is its reply-to (`emails_create`), nor a Slack
# post made under their username (`username` names the bot that posts, not who reads it).
MESSAGE = Step(MAKE, "message", ("email", "phone"), words=SENDS,
               avoid=STATEMENTS | {"emails"})

WORKFLOW = Workflow(
    name="colleague_welcome",
    domain="chat",
    purpose="welcome a new colleague",
    steps=(
        Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        MESSAGE,
    ),
    gist="welcoming them to the team",
    opens=("{s} just joined our team.", "{s} starts with us today."),
    trial=True,
)
