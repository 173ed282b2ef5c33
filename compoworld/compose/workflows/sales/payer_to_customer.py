"""Set up whoever made a payment as a customer in another app."""

from compoworld.compose.steps import NEW_CONTACT, NOT_RECEIVED
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="payer_to_customer",
    domain="sales",
    purpose="set up a paying customer in another app",
    steps=(
        Step(READ, "payment", avoid=NOT_RECEIVED),
        NEW_CONTACT,
    ),
    opens=("{s} came from someone we have no customer record for there yet.",
           "The customer behind {s} should be set up in our other tools too."),
    guards=frozenset({"books_to_books", "unpaid"}),
    trial=True,
)
