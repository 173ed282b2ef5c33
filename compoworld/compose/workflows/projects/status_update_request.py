"""Ask a colleague for their weekly project status update."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, EVERY_VALID
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="status_update_request",
    domain="projects",
    purpose="ask a colleague for their project status update",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking them for their status update before Thursday's project review",
    subject="Status update for Thursday's review",
    says=("status", "update"),
    tells=("Thursday",),
    opens=("I'm putting together Thursday's project review and need an update from {s}.",
           "{s} owns two workstreams I need an update on."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
