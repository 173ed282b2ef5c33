"""Invite a prospect to our product webinar."""

from compoworld.compose.steps import (
    BY_COMPANY,
    BY_REGION,
    BY_SEGMENT,
    NEWEST,
    PROSPECT,
    send,
    tagged,
)
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="webinar_invite",
    domain="sales",
    purpose="invite a prospect to a webinar",
    steps=(
        PROSPECT,
        send("email", "phone", "name"),
    ),
    gist="inviting them to our product webinar on March 27",
    subject="Join our product webinar on March 27",
    says=("webinar",),
    tells=("March 27",),
    opens=("{s} asked for a look at our product.",
           "We'd like {s} at our next product webinar."),
    # an invitation to a segment or region, or to the newest prospects
    operators=(tagged("priority"), BY_SEGMENT, BY_REGION, NEWEST, BY_COMPANY),
)
