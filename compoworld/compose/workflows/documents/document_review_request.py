"""Ask a colleague to review a shared document before it goes out."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="document_review_request",
    domain="documents",
    purpose="ask a colleague to review a document",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking them to review the Q3 budget document before Friday",
    subject="Please review the Q3 budget document",
    says=("review", "reviewing"),
    tells=("Friday", "Q3 budget"),  # (what to review, not only by when)
    opens=("{s} owns the numbers in the Q3 budget document, which goes to the board next week.",
           "The Q3 budget document needs a last check from {s}."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
