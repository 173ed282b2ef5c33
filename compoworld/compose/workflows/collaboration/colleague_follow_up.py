"""Plan a follow-up with a colleague: a task in the team's tracker, titled by whom it is for.

A reminder or a request to a colleague (sign the contract, file the timesheet) is checked
back on: the team files a to-do, "Follow up with Ana Ruiz". The colleague's twin of
`follow_up_task`, read from the apps that keep our staff.
"""

from compoworld.compose.steps import (
    BY_TEAM,
    CLIENT_DESKS,
    COLLEAGUE,
    CONTACT,
    DEALS,
    PROJECTS,
    TEAM_WORK,
    TODOS,
)
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name="colleague_follow_up",
    domain="collaboration",
    purpose="plan a follow-up with a colleague",
    steps=(
        COLLEAGUE,
        Step(MAKE, "task", CONTACT, words=TODOS, avoid=PROJECTS | DEALS,
             title="Follow up with {s}", filed=TEAM_WORK,
             unfiled=CLIENT_DESKS),
    ),
    situation="task",
    # a follow-up checks back on a request that awaits an answer
    after=("remind", "ask", "invite", "request", "chase"),
    operators=(BY_TEAM,),
)
