"""Share an issue with the team in a chat channel."""

from compoworld.compose.steps import BY_PRIORITY, ISSUES, OLDEST, tagged
from compoworld.compose.workflow import MAKE, READ, Operator, Step, Workflow

WORKFLOW = Workflow(
    name="issue_to_channel",
    domain="chat",
    purpose="share an issue with the team in a chat channel",
    steps=(
        Step(READ, "ticket", words=ISSUES),
        # a post into a team channel: no email, text or comment on a record
        Step(MAKE, "message", ("text",), words=frozenset({"post", "send"}),
             avoid=frozenset("email emails mail sms comment comments".split()),
             into="channel"),
    ),
    opens=("The team should know about {s}.", "{s} needs more eyes on it."),
    channels=("support", "engineering"),
    guards=frozenset({"ticket_closed"}),  # a closed issue needs no more eyes
    # every issue still open is shared, never a closed one
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST,
               Operator("select", field="status state",
                        rule="open new pending"),),
)
