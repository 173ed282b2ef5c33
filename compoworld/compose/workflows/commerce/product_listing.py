"""List a product in another store."""

from compoworld.compose.steps import VARIANTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='product_listing',
    domain='commerce',
    purpose='list a product in another store',
    steps=(
        Step(READ, 'product'),
        Step(MAKE, 'product', ('name', 'amount', 'currency', 'url'), avoid=VARIANTS),
    ),
    situation='product',
)
