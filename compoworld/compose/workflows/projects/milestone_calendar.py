"""Put a project milestone's date on the team calendar."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="milestone_calendar",
    domain="projects",
    purpose="put a milestone on the team calendar",
    steps=(
        Step(READ, "task", words=frozenset({"milestone", "milestones"})),
        Step(MAKE, "event", ("time", "name")),
    ),
    opens=("{s} is coming up, and the team should see it on the calendar.",
           "Nobody on the team has {s} on their calendar."),
    guards=frozenset({"already_done", "past_copy"}),
    trial=True,
)
