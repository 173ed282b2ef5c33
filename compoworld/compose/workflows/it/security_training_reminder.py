"""Remind a colleague to finish their security awareness training."""

from compoworld.compose.steps import (
    BY_TEAM,
    COLLEAGUE,
    COLLEAGUE_MESSAGE,
    EVERY_VALID,
    NEWEST,
    tagged,
)
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="security_training_reminder",
    domain="it",
    purpose="remind a colleague to finish their security training",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them to finish their security awareness training by Friday",
    subject="Security awareness training due Friday",
    says=("training",),
    tells=("Friday",),
    opens=("{s} hasn't finished this year's security awareness training.",
           "Our compliance report lists {s} as overdue on security training."),
    guards=frozenset({"gone"}),
    # a reminder to everyone who has not finished, to a team, or to those who joined last
    operators=(tagged("onboarding"), EVERY_VALID, BY_TEAM, NEWEST),
)
