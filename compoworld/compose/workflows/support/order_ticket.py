"""Open a support ticket for a customer who reported a problem with their order."""

from compoworld.compose.steps import BIGGEST, SALE
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name="order_ticket",
    domain="support",
    purpose="open a ticket about a problem with an order",
    steps=(
        SALE,
        Step(MAKE, "ticket", ("email", "name", "phone")),  # raised for who placed it
    ),
    opens=("The customer of {s} says it arrived damaged.",
           "The customer behind {s} wrote that part of it is missing."),
    trial=True,
    operators=(BIGGEST,),
)
