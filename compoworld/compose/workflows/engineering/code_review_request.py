"""Ask a colleague to review a pull request before the release."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, ENGINEER
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="code_review_request",
    domain="engineering",
    purpose="ask a colleague to review a pull request",
    steps=(
        ENGINEER,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking them to review the checkout fix pull request before Thursday's release",
    subject="Review request: the checkout fix",
    says=("review", "reviewing"),
    tells=("Thursday", "checkout fix"),  # (which pull request, not only by when)
    opens=("{s} knows the checkout code best, and the fix is waiting for a review.",
           "The checkout fix needs a second pair of eyes, and {s} is the right person."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
