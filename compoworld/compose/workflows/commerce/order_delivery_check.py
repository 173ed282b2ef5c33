"""Ask a customer whether their order arrived in good condition."""

from compoworld.compose.steps import OLDEST, SALE, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="order_delivery_check",
    domain="commerce",
    purpose="check that an order arrived well",
    steps=(
        SALE,
        send("email", "phone", "name"),
    ),
    gist="asking whether their order arrived in good condition",
    subject="Did your order arrive safely?",
    says=("arrived", "condition"),
    opens=("{s} should have reached the customer by now.",
           "{s} went out last week, and we haven't heard how it arrived."),
    guards=frozenset({"called_off", "undelivered"}),
    trial=True,
    operators=(OLDEST,),
)
