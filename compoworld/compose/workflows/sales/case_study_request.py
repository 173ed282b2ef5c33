"""Ask a customer to take part in a case study."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, OLDEST, TOP_SPENDERS, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="case_study_request",
    domain="sales",
    purpose="ask a customer for a case study",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="asking whether they would take part in a short case study about working with us",
    subject="Would you take part in a case study?",
    says=("case study",),
    opens=("{s} has been with us for a while and likes our service.",
           "We're looking for a customer story, and {s} would be a good one."),
    # a case study asked of the customers who spent the most, or who have been with us longest
    operators=(tagged("vip"), BY_SEGMENT, TOP_SPENDERS, OLDEST),
)
