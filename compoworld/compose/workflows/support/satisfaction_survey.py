"""Ask a customer to fill in our satisfaction survey."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, NEWEST, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="satisfaction_survey",
    domain="support",
    purpose="ask a customer for survey feedback",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="asking them to rate our service from 1 to 5 in a reply",  # (no survey link
    # the world holds)
    subject="How are we doing?",
    says=("rate", "rating"),
    tells=("1 to 5",),
    opens=("We haven't asked {s} how we're doing in a while.",
           "{s} is in this quarter's satisfaction survey."),
    # a survey of a segment, or of the newest customers (how their start went)
    operators=(tagged("onboarding"), BY_SEGMENT, NEWEST),
)
