"""Give a customer their money back for a payment, and tell them it is on its way."""

from compoworld.compose.steps import NOT_RECEIVED, refund, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="payment_refund_notify",
    domain="billing",
    purpose="refund a payment and tell the payer",
    steps=(
        Step(READ, "payment", avoid=NOT_RECEIVED),  # a payment that came in from them
        refund(),
        send("email", "phone"),
    ),
    gist="that their refund is on its way",
    opens=("{s} was paid, and the customer has asked for their money back.",
           "We've agreed to refund {s}."),
    trial=True,
)
