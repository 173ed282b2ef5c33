"""List a product and order stock for it."""

from compoworld.compose.steps import NOT_SALES, VARIANTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='product_listing_inventory',
    domain='commerce',
    purpose='list a product and order stock for it',
    steps=(
        Step(READ, 'product'),
        Step(MAKE, 'product', ('name', 'amount', 'currency', 'url'), avoid=VARIANTS),
        Step(MAKE, 'order', ('name', 'amount', 'currency'), needs=('name',), avoid=NOT_SALES),
    ),
    situation='product',
)
