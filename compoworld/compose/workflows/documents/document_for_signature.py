"""Send a document out for signature."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="document_for_signature",
    domain="documents",
    purpose="send a document out for signature",
    steps=(
        Step(READ, "document"),
        Step(MAKE, "envelope", ("email", "name", "filename", "url")),
    ),
    opens=("{s} is ready to be signed.", "{s} needs a signature before we can start."),
    trial=True,
)
