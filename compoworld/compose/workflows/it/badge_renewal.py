"""Remind a colleague to renew their office access badge."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, OLDEST
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="badge_renewal",
    domain="it",
    purpose="remind a colleague to renew their badge",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist=("reminding them that their office badge expires at the end of the month and can be "
          "renewed at reception"),
    subject="Your office badge expires this month",
    says=("badge",),
    tells=("end of the month", "reception"),
    opens=("{s}'s office badge expires at the end of the month.",
           "Reception flagged the access badge of {s} as about to expire."),
    guards=frozenset({"gone"}),
    # a renewal for a team, or for the colleagues who joined first (whose badges are oldest)
    operators=(BY_TEAM, OLDEST),
)
