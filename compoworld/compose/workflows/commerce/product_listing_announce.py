"""List a product in another store and announce it."""

from compoworld.compose.steps import VARIANTS, send
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name='product_listing_announce',
    domain='commerce',
    purpose='list a product in another store and announce it',
    steps=(
        Step(READ, 'product'),
        Step(MAKE, 'product', ('name', 'amount', 'currency', 'url'), avoid=VARIANTS),
        send('name', 'url'),
    ),
    gist='announcing the new listing',
    situation='product',
)
