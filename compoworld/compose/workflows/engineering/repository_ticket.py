"""Open a ticket about a repository in the team's tracker."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="repository_ticket",
    domain="engineering",
    purpose="open a ticket about a repository",
    steps=(
        Step(READ, "repository"),
        Step(MAKE, "ticket", ("url", "name", "email", "username")),
    ),
    opens=("{s} needs a security review this quarter.",
           "The dependencies of {s} are out of date."),
    trial=True,
)
