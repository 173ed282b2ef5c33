"""Remind a colleague that their part of a plan is due."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, EVERY_VALID
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="plan_section_due",
    domain="projects",
    purpose="remind a colleague of a plan deadline",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them that their section of the Q2 plan is due on Thursday",
    subject="Your section of the Q2 plan",
    says=("Q2 plan", "plan"),
    tells=("Thursday",),
    opens=("I'm putting the Q2 plan together and still need {s}'s section.",
           "{s} owns a section of the Q2 plan that's due this week."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
