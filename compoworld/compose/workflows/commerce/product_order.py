"""Order a product."""

from compoworld.compose.steps import NOT_SALES
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='product_order',
    domain='commerce',
    purpose='order a product',
    steps=(
        Step(READ, 'product'),
        Step(MAKE, 'order', ('amount', 'currency', 'name'), needs=('name',), avoid=NOT_SALES),
    ),
    situation='stock',
)
