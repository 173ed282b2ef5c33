"""Remind a colleague to finish their self-review before the review cycle closes."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, EVERY_VALID, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="self_review_reminder",
    domain="hr",
    purpose="remind a colleague to finish their self-review",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them to finish their self-review by the end of the week",
    tells=("end of the week",),
    subject="Your self-review is due this week",
    says=("self-review", "self review", "self-assessment"),  # (a bare "review" is any review)
    opens=("The review cycle closes on Friday, and {s} hasn't finished their self-review.",
           "{s}'s manager is waiting on their self-review."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
