"""Post a release's notes in the team's engineering or announcements channel."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="release_to_channel",
    domain="engineering",
    purpose="share a release's notes with the team in a chat channel",
    steps=(
        Step(READ, "release"),
        # a post into a team channel, carrying the release's notes: no email, text or comment
        Step(MAKE, "message", ("text",), words=frozenset({"post", "send"}),
             avoid=frozenset("email emails mail sms comment comments".split()),
             into="channel"),
    ),
    opens=("{s} is out.", "We just shipped {s}."),
    channels=("engineering", "announcements"),
    guards=frozenset({"unreleased"}),
    # no "the newest release": a world's release names carry versions its dates need not
    # follow ("Release 1.2.3" made after 4.4.0), and nothing tells a release that is out
)
