"""Record a sale in the books."""

from compoworld.compose.steps import SALE, book
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="order_to_books",
    domain="billing",
    purpose="record a sale in the books",
    steps=(
        SALE,
        book(),
    ),
    opens=("{s} isn't in our books yet.",
           "{s} was sold this week and our accountant needs it booked."),
    guards=frozenset({"called_off"}),
    trial=True,
)
