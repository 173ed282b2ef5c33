"""Set up the guest of a meeting as a customer in another app."""

from compoworld.compose.steps import NEW_CONTACT
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="guest_to_customer",
    domain="sales",
    purpose="set up a meeting's guest as a customer",
    steps=(
        Step(READ, "event"),
        NEW_CONTACT,
    ),
    opens=("We'd like to keep working with the guest of {s}.",
           "The guest of {s} wants to do business with us."),
    guards=frozenset({"books_to_books"}),
    trial=True,
)
