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
    opens=("{s} isn't in our books yet.", "I'm booking this week's sales, starting with {s}."),
    guards=frozenset({"called_off"}),
    trial=True,
)
