"""Book a planning session with a colleague for a project."""

from compoworld.compose.steps import ENGINEER, TEAM_MEETING
from compoworld.compose.workflow import Purpose, Workflow

WORKFLOW = Workflow(
    name="project_planning",
    domain="projects",
    purpose="book a project planning session with a colleague",
    steps=(
        ENGINEER,
        TEAM_MEETING,
    ),
    situation="meeting",
    meeting=Purpose("a planning session for the website relaunch", "Website relaunch planning",
                    ("{s} is leading the website relaunch, and we need to plan it.",
                     "I'd like to plan the website relaunch milestones with {s}.")),
)
