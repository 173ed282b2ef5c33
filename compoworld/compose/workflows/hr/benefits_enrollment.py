"""Remind a colleague to choose their benefits before enrollment closes."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, EVERY_VALID, PERSONNEL, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="benefits_enrollment",
    domain="hr",
    purpose="remind a colleague to choose their benefits",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them that benefits enrollment closes on Friday",
    subject="Benefits enrollment closes Friday",
    says=("benefits", "enrollment", "enrolment"),
    tells=("Friday",),
    opens=("{s} hasn't chosen their benefits for this year.",
           "Benefits enrollment closes this week, and {s} hasn't picked a plan."),
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), EVERY_VALID, BY_TEAM,),
)
