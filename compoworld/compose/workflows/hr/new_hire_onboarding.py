"""Onboard a new colleague: give them an account, book their induction and welcome them (a
job of two workflows about one person)."""

from compoworld.compose.workflow import chain
from compoworld.compose.workflows.hr.employee_welcome import WORKFLOW as WELCOME
from compoworld.compose.workflows.hr.new_hire import WORKFLOW as NEW_HIRE

WORKFLOW = chain("new_hire_onboarding", "hr",
                 "set up a new colleague, book their induction and welcome them",
                 NEW_HIRE, WELCOME)
