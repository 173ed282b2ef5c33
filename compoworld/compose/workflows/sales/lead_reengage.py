"""Get back in touch with a prospect who went quiet."""

from compoworld.compose.steps import BY_LEAD, OLDEST, PROSPECT, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="lead_reengage",
    domain="sales",
    purpose="re-engage a prospect who went quiet",
    steps=(
        PROSPECT,
        send("email", "phone", "name"),
    ),
    gist="asking whether they are still interested in working with us",
    subject="Still interested?",
    says=("interested", "interest"),
    opens=("{s} went quiet after our first call.",
           "We haven't heard from {s} in a few weeks."),
    operators=(tagged("follow-up"), BY_LEAD, OLDEST),
)
