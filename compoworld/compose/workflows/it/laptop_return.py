"""Ask a departing colleague to hand back their laptop and equipment."""

from compoworld.compose.steps import COLLEAGUES, NOT_COLLEAGUES, SENDS, STATEMENTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

# A message to the colleague: no address added to an account (`user_add_email`), nor a
# task app's email record whose only address is its reply-to (`emails_create`).
MESSAGE = Step(MAKE, "message", ("email", "phone"), words=SENDS,
               avoid=STATEMENTS | {"emails"})

WORKFLOW = Workflow(
    name="laptop_return",
    domain="it",
    purpose="ask a departing colleague to return their equipment",
    steps=(
        Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES),
        MESSAGE,
    ),
    gist="asking them to return their laptop before their last day",
    opens=("{s} is leaving us at the end of the month.", "{s} handed in their notice."),
    trial=True,
)
