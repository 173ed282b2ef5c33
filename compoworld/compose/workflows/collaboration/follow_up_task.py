"""Plan a follow-up with someone: a task in the team's tracker, titled by whom it is for.

After a reminder, a notice or a request, a team files a to-do to check back ("Follow up
with Ana Ruiz"), so the job is not done when the message is sent. Alone it is a small
errand; as a later part of a job it is the step that keeps the request from being lost.
"""

from compoworld.compose.steps import (
    BACK_OFFICE,
    BY_SEGMENT,
    CLIENT_WORK,
    CONTACT,
    DEALS,
    PROJECTS,
    TODOS,
    tagged,
)
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="follow_up_task",
    domain="collaboration",
    purpose="plan a follow-up with someone",
    steps=(
        Step(READ, "person"),
        Step(MAKE, "task", CONTACT, words=TODOS, avoid=PROJECTS | DEALS,
             title="Follow up with {s}", filed=CLIENT_WORK,
             unfiled=BACK_OFFICE),
    ),
    situation="task",
    # a follow-up checks back on a request that awaits an answer
    after=("remind", "ask", "invite", "offer", "request", "chase"),
    operators=(tagged("follow-up"), BY_SEGMENT,),
)
