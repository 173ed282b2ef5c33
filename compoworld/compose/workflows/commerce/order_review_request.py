"""Ask a customer to review what they bought."""

from compoworld.compose.steps import BIGGEST, SALE, send
from compoworld.compose.workflow import Operator, Workflow

WORKFLOW = Workflow(
    name="order_review_request",
    domain="commerce",
    purpose="ask a customer for a review of their order",
    steps=(
        SALE,
        send("email", "phone", "name"),
    ),
    gist="asking them to review their purchase",
    subject="How was your order?",
    says=("review", "reviews", "feedback"),
    opens=("We'd like to hear what the customer thinks of {s}.",
           "We're collecting reviews, and {s} is next on the list."),
    guards=frozenset({"called_off"}),
    # a review is asked for every order that reached its customer
    operators=(BIGGEST,
               Operator("select", field="status state",
                        rule="completed delivered fulfilled"),),
)
