"""Set up a colleague's account, tell them, and book a first one-on-one (a job of two
workflows about one person)."""

from compoworld.compose.workflow import chain
from compoworld.compose.workflows.hr.one_on_one import WORKFLOW as ONE_ON_ONE
from compoworld.compose.workflows.it.account_setup_notice import WORKFLOW as ACCOUNT_NOTICE

WORKFLOW = chain("account_and_intro", "it",
                 "set up a colleague's account, tell them, and book a one-on-one",
                 ACCOUNT_NOTICE, ONE_ON_ONE)
