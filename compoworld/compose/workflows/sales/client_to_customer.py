"""Set up the client of an invoice as a customer in another app."""

from compoworld.compose.steps import NEW_CONTACT, SALES_INVOICE
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="client_to_customer",
    domain="sales",
    purpose="set up an invoiced client in another app",
    steps=(
        Step(READ, "invoice", avoid=SALES_INVOICE),
        NEW_CONTACT,
    ),
    opens=("We invoiced a client with {s}, and they should be set up in our other tools too.",
           "The client of {s} will be working with us more."),
    guards=frozenset({"books_to_books"}),
    trial=True,
)
