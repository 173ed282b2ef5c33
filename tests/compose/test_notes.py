"""The reference's own messages: a gist said to its reader, never pasted in as a clause."""

import random
import re

from compoworld.compose.notes import reference_note, spoken
from compoworld.compose.patterns import topic_of
from compoworld.compose.workflows import WORKFLOWS

# How a request states a message ("asking whether they are still interested"): a gold
# message that says it so ("just a short note asking whether you are still interested in
# working with us") reads as the request copied out, and teaches an agent to do that.
_CLAUSE = re.compile(r"\b(asking|letting|reminding|telling|inviting|thanking|offering|"
                     r"welcoming|confirming|apologising|handing|announcing) (you|for)\b|"
                     r"\bquick note\b|\bshort note\b|\band saying\b")


def test_every_gist_of_the_library_is_said_to_its_reader() -> None:
    gists = sorted({w.gist for w in WORKFLOWS if w.gist})
    assert len(gists) > 50
    for gist in gists:
        for seed in range(6):
            note = reference_note(gist, {}, "x", random.Random(seed), name="Ana")
            assert not _CLAUSE.search(note), (gist, note)
            assert note.startswith(("Hello Ana", "Hi Ana", "Dear Ana", "Ana,")), note
            assert not re.search(r"\b(them|their|they)\b", note), note  # (said to "you")


def test_questions_are_asked_and_news_is_told() -> None:
    rng = random.Random(0)
    asked = {spoken("asking whether they are still interested in working with us", rng)
             for _ in range(20)}
    assert "are you still interested in working with us?" in asked
    assert asked <= {"are you still interested in working with us?",
                     "could you let us know whether you are still interested in working "
                     "with us?"}
    assert "do you still need your licence?" in {
        spoken("asking whether they still need their licence", random.Random(s))
        for s in range(10)}
    # a clause of no "you ..." is never turned about ("did your order arrive" needs a
    # verb's stem): it is asked whole
    assert spoken("asking whether their order arrived in good condition",
                  random.Random(1)).startswith("could you let us know whether your order")
    assert spoken("asking them to return their laptop before their last day",
                  random.Random(0)).endswith("return your laptop before your last day?")
    assert spoken("letting them know our prices change on April 1",
                  random.Random(0)) in {"our prices change on April 1.",
                                        "just so you know, our prices change on April 1.",
                                        "a quick heads-up: our prices change on April 1."}
    # two things said are two sentences, not "thank you for attending and saying ..."
    assert spoken("thanking them for attending our webinar and saying the recording will "
                  "follow", random.Random(0)).endswith(
        "for attending our webinar. The recording will follow.")


def test_the_facts_and_the_topic_survive_the_rewording() -> None:
    for seed in range(8):
        note = reference_note("about their order", {}, "x", random.Random(seed), name="Ana",
                              title="Lamp")
        assert 'your order "Lamp"' in note and "about about" not in note, note
        asked = reference_note("asking them for more details so we can look into it", {}, "x",
                               random.Random(seed), name="Ana", title="Login delay")
        assert '"Login delay"' in asked and asked.count("?") == 1, asked
        invited = reference_note("inviting them to our customer day on March 20", {}, "x",
                                 random.Random(seed), name="Ana")
        assert "March 20" in invited and topic_of(invited)[0] == "invite", invited


def test_a_question_names_its_meeting_and_day_before_it_asks():
    """"Could you send us the topics you want on the agenda on March 3, 2025 at 15:30
    UTC?": the meeting's day, appended to a question, read as the topics' own (a blind
    review called it garbled). It comes first; a thank-you keeps it after."""
    for seed in range(6):
        asked = reference_note("asking them for the topics they want on the agenda", {}, "x",
                               random.Random(seed), name="Kofi", title="Quarterly workshop",
                               event=("", "2025-03-03T15:30:00Z"))
        assert 'bout "Quarterly workshop" on March 3, 2025 at 15:30 UTC: could' in asked
        assert "agenda on March" not in asked and "agenda?" in asked, asked
        thanks = reference_note("thanking them for their time", {}, "x", random.Random(seed),
                                name="Kofi", event=("", "2025-02-25T13:00:00Z"))
        assert "time on February 25, 2025 at 13:00 UTC." in thanks, thanks
