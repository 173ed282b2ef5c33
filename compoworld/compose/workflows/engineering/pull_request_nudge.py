"""Ask the author of a pull request that waits on them to take it up again."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="pull_request_nudge",
    domain="engineering",
    purpose="nudge the author of a waiting pull request",
    steps=(
        Step(READ, "pull_request"),
        send("email", "username"),  # to its author, where the review left it
    ),
    gist="asking them to pick the pull request up again",
    says=("pull request",),
    opens=("{s} has been waiting for a while.", "{s} has stalled, and the release needs it."),
    guards=frozenset({"already_done"}),
    trial=True,
)
