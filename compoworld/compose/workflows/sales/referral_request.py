"""Ask a happy customer whether they would recommend us."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, OLDEST, TOP_SPENDERS, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="referral_request",
    domain="sales",
    purpose="ask a customer for a referral",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="asking whether they would recommend us to others",
    subject="Would you recommend us?",
    says=("recommend", "referral"),
    opens=("{s} has been happy with our service.",
           "{s} told us they like working with us."),
    # a referral asked of the customers who spent the most, or who have been with us longest
    operators=(tagged("vip"), BY_SEGMENT, TOP_SPENDERS, OLDEST),
)
