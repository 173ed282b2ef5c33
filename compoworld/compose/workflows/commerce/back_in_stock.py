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
    gist="letting them know the item on their back order is in stock again and ships this week",
    subject="Back in stock",
    says=("stock",),
    # (what happens next: "the item they asked about is back in stock" told them nothing
    # they could act on; a named item, "a walnut side table", read as made up beside a
    # seller called "Redwood Robotics")
    tells=("this week",),
    opens=("{s} has been waiting on a back order.",
           "The item {s} ordered was out of stock, and it has just come back in."),
    operators=(BY_SEGMENT,),
)
