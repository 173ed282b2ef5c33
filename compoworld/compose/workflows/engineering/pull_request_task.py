"""Track the review of a pull request as a task in the team's tracker."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="pull_request_task",
    domain="engineering",
    purpose="track a pull request's review as a task",
    steps=(
        Step(READ, "pull_request"),
        Step(MAKE, "task", ("url", "name", "email", "username")),  # its link, who wrote it
    ),
    opens=("{s} needs a review before the release.", "Nobody has reviewed {s} yet."),
    guards=frozenset({"already_done"}),
    trial=True,
)
