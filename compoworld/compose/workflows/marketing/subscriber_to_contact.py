"""Bring a newsletter subscriber into the CRM."""

from compoworld.compose.steps import BY_LEAD, NEW_CONTACT, NEWEST, SUBSCRIBERS
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="subscriber_to_contact",
    domain="marketing",
    purpose="add a newsletter subscriber to the CRM",
    steps=(
        Step(READ, "person", words=SUBSCRIBERS),
        NEW_CONTACT,
    ),
    opens=("{s} reads our newsletter and asked sales for a call.",
           "{s}, one of our subscribers, is interested in buying."),
    trial=True,
    operators=(BY_LEAD, NEWEST),
)
