"""Tell a customer they have earned a loyalty reward."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, OLDEST, TOP_SPENDERS, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="loyalty_reward",
    domain="commerce",
    purpose="tell a customer about their loyalty reward",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="telling them they have earned a 10% loyalty reward on their next order",
    subject="You've earned a loyalty reward",
    says=("reward", "loyalty"),
    tells=("10%",),
    opens=("{s} has just placed their tenth order with us.",
           "{s} is one of our most loyal customers this year."),
    # a reward for the customers who spent the most, or who have been with us longest (a
    # customer record rarely holds what they spent, but always when they joined)
    operators=(tagged("vip"), BY_SEGMENT, TOP_SPENDERS, OLDEST),
)
