"""Remind a colleague directly that their on-call shift is coming up."""

from compoworld.compose.steps import COLLEAGUES, NOT_COLLEAGUES, SENDS, STATEMENTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

# A message to the colleague: no address added to an account (`user_add_email`), nor a
# task app's email record whose only address is its reply-to (`emails_create`), nor a Slack
# post made under their username (`username` names the bot that posts, not who reads it).
MESSAGE = Step(MAKE, "message", ("email", "phone"), words=SENDS,
               avoid=STATEMENTS | {"emails"})

WORKFLOW = Workflow(
    name="oncall_reminder",
    domain="chat",
    purpose="remind a colleague of their on-call shift",
    steps=(
        Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        MESSAGE,
    ),
    gist="reminding them that their on-call shift starts this weekend",
    opens=("{s} is on call this weekend.", "{s} takes over the on-call pager on Saturday."),
    trial=True,
)
