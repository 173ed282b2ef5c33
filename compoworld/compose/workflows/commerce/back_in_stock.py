"""Tell a customer that the item they asked about is back in stock."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="back_in_stock",
    domain="commerce",
    purpose="tell a customer an item is back in stock",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="letting them know the walnut side table they asked about is back in stock",
    subject="Back in stock",
    says=("stock",),
    # (which item: "the item they asked about" told them nothing they could act on)
    tells=("walnut side table",),
    opens=("{s} asked us to tell them when the walnut side table is back.",
           "The walnut side table {s} was waiting for has just come back in stock."),
    operators=(BY_SEGMENT,),
)
