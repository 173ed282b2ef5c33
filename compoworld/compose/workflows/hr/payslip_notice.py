"""Let a colleague know their payslip is ready."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, EVERY_VALID, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="payslip_notice",
    domain="hr",
    purpose="let a colleague know their payslip is ready",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know their February payslip is ready to view",
    subject="Your February payslip is ready",
    says=("payslip",),
    tells=("February",),
    opens=("February payroll has run, and {s} asked when their payslip would be ready.",
           "{s}'s February payslip is ready."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
