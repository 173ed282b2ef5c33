"""Subscribe a customer to our newsletter list."""

from compoworld.compose.steps import BY_LEAD, CONTACT, LEAD, NEWEST, SUBSCRIBERS
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name="lead_to_audience",
    domain="marketing",
    purpose="subscribe a customer to our newsletter",
    steps=(
        LEAD,
        Step(MAKE, "person", CONTACT,
             words=SUBSCRIBERS),
    ),
    opens=("{s} asked to get our newsletter.", "{s} wants to hear about our offers."),
    guards=frozenset({"books_to_books"}),
    trial=True,
    operators=(BY_LEAD, NEWEST),
)
