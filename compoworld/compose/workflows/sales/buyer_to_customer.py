"""Set up whoever placed an order as a customer in another app."""

from compoworld.compose.steps import NEW_CONTACT, SALE
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="buyer_to_customer",
    domain="sales",
    purpose="set up a buyer as a customer in another app",
    steps=(
        SALE,
        NEW_CONTACT,
    ),
    opens=("{s} came from a buyer we have no customer record for there yet.",
           "Whoever placed {s} should be set up in our other tools too."),
    guards=frozenset({"books_to_books", "called_off"}),
    trial=True,
)
