"""Find a place near a customer."""

from compoworld.compose.steps import BY_SEGMENT, LEAD
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name='customer_location',
    domain='commerce',
    purpose='find a place near a customer',
    steps=(
        LEAD,
        Step(READ, 'place', ('city', 'postal_code', 'address', 'country')),
    ),
    operators=(BY_SEGMENT,),
)
