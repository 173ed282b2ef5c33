"""Tell a colleague when a project they are on kicks off."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, ENGINEER
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="project_kickoff_notice",
    domain="projects",
    purpose="tell a colleague when their project kicks off",
    steps=(
        ENGINEER,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know the website relaunch project kicks off on Monday",
    subject="The website relaunch kicks off on Monday",
    says=("kick", "kicks", "kickoff", "kick-off", "starts", "start"),
    tells=("Monday",),
    opens=("{s} is on the team for the website relaunch.",
           "The website relaunch is about to start, and {s} is part of it."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
