"""Follow up on a deal."""

from compoworld.compose.steps import BIGGEST, DEAL, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name='deal_followup',
    domain='sales',
    purpose='follow up on a deal',
    steps=(
        DEAL,
        send('email', 'phone', 'name'),
    ),
    gist='following up on the deal',
    subject='Following up',
    says=('deal', 'follow up', 'following up'),
    situation='deal',
    operators=(BIGGEST,),
)
