"""Ask a prospect whether they would like our newsletter."""

from compoworld.compose.steps import BY_LEAD, NEWEST, PROSPECT, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="newsletter_optin",
    domain="marketing",
    purpose="ask a prospect to join our newsletter",
    steps=(
        PROSPECT,
        send("email", "phone", "name"),
    ),
    gist="asking whether they would like to receive our monthly newsletter",
    subject="Would you like our monthly newsletter?",
    says=("newsletter",),
    opens=("{s} showed interest in what we do.",
           "{s} asked to hear more about our products."),
    operators=(BY_LEAD, NEWEST),
)
