"""Track the review of a pull request as a task in the team's tracker."""

from compoworld.compose.steps import DEALS, PROJECTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="pull_request_task",
    domain="engineering",
    purpose="track a pull request's review as a task",
    steps=(
        Step(READ, "pull_request"),
        # its title, link or author, into a to-do: no whole project, no deal
        Step(MAKE, "task", ("title", "url", "name", "email", "username"),
             avoid=PROJECTS | DEALS),
    ),
    opens=("{s} needs a review before the release.", "Nobody has reviewed {s} yet."),
    guards=frozenset({"already_done"}),
    trial=True,
)
