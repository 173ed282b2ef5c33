"""Confirm to a customer that we will call them back."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="callback_confirmation",
    domain="support",
    purpose="confirm a callback to a customer",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="confirming that our support team will call them back tomorrow morning",
    subject="We'll call you back tomorrow morning",
    says=("call",),
    tells=("tomorrow morning",),
    opens=("{s} asked our support line for a callback.",
           "{s} left a voicemail asking us to call them back."),
    operators=(BY_SEGMENT,),
)
