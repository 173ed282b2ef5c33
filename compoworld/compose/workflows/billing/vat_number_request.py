"""Ask a customer for their VAT number for their invoices."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, NEWEST, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="vat_number_request",
    domain="billing",
    purpose="ask a customer for their VAT number",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="asking for their VAT number so that we can add it to their invoices",
    subject="Your VAT number for our invoices",
    says=("VAT number",),
    opens=("{s}'s invoices are missing their VAT number.",
           "Our accountant noticed that {s} has no VAT number on file."),
    guards=frozenset({"no_vat"}),  # (no VAT number asked of a customer in the US)
    # a VAT number asked of a segment, or of the newest customers (whose records are new)
    operators=(tagged("billing"), BY_SEGMENT, NEWEST),
)
