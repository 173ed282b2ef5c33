"""How requests name things: the corpus's document titles said as app names, dates and
times as a person says them."""

import pytest

from compoworld.compose.naming import app_name, spoken_time, stated


@pytest.mark.parametrize(("service", "title", "said"), [
    ("avaza_com", "Avaza API Documentation", "Avaza"),
    ("twilio_com_api", "Twilio - Api", "Twilio"),
    ("api2cart_com", "Swagger API2Cart", "API2Cart"),  # (not "Swagger API2Cart",
    ("letmc_com_basic_tier", "LetMC Api V2, Free", "LetMC"),  # "LetMC Api V2, Free")
    ("velopayments_com", "Velo Payments APIs", "Velo Payments"),
    ("exhibitday_com", "Test the ExhibitDay API with Swagger", "ExhibitDay"),
    ("apideck_com_accounting", "Accounting API", "our accounting system"),  # unified
    ("nexmo_com_conversation", "Conversation API", "Vonage Conversation"),
    ("ebay_com_sell_logistics", "Logistics API", "eBay Logistics"),
    ("botschaft_local", "FastAPI", "FastAPI"),  # a name that ends in API keeps it
    ("victorops_com", "VictorOps", "VictorOps"),
    ("bigredcloud_com", "Big Red Cloud API", "Big Red Cloud"),
    # a version is no part of an app's name ("a ticket in GitHub v3", "JIRA 7.6.1"), nor is
    # the document's "API Reference:" or its closing full stop ("Gitea API.")
    ("github_com_api_github_com_f066a9dc", "GitHub v3 REST API", "GitHub"),
    ("jira_local", "JIRA 7.6.1", "JIRA"),
    ("vtex_local_master_data_api_34dae823", "MasterData API - v1", "MasterData"),
    ("gitea_io", "Gitea API.", "Gitea"),
    # a title that names a product's part alone is led by its maker ("contact in Reference:
    # Billing", "an email through Email Activity" named no app a person knows)
    ("zuora_com", "API Reference: Billing", "Zuora Billing"),
    # ... and the maker alone where the document is its whole API under one part's title
    # (SendGrid's v3 API, mail sends and all, is titled "Email Activity (beta)")
    ("sendgrid_com", "Email Activity (beta)", "SendGrid"),
])
def test_a_document_title_is_said_as_the_app_s_name(service, title, said):
    assert app_name(service, title) == said


def test_a_title_that_is_only_api_words_is_kept():
    assert app_name("change_local", "API V1") == "API V1"


@pytest.mark.parametrize(("value", "said"), [
    ("2025-03-12T12:30:00Z", "Wednesday, March 12, 2025 at 12:30 UTC"),
    ("2025-03-12T09:00+00:00", "Wednesday, March 12, 2025 at 09:00 UTC"),
    ("2025-03-03", "Monday, March 3, 2025"),
    ("2025-03-12T12:30:05Z", ""), ("2025-03-12T12:30:00+02:00", ""), ("2025-02-30", ""),
    ("March 12", ""), (20250312, ""),
])
def test_a_date_or_utc_time_is_said_as_a_person_says_it(value, said):
    assert spoken_time(value) == said


def test_a_visible_time_is_stated_verbatim_or_as_said():
    assert stated("2025-03-12T12:30:00Z", "book it for 2025-03-12T12:30:00Z please")
    assert stated("2025-03-12T12:30:00Z", "on Wednesday, March 12, 2025 at 12:30 UTC.")
    assert not stated("2025-03-12T12:30:00Z", "on Wednesday, March 12, 2025.")
    assert not stated("2025-03-12T12:30:00Z", "on Thursday, March 13, 2025 at 12:30 UTC.")
    assert stated("Ann Lee", "for Ann Lee") and not stated("Ann Lee", "for ann lee")


def test_a_span_of_one_day_states_its_start_and_its_end():
    """`on Tuesday, February 25, 2025 from 17:30 to 18:15 UTC` states both times (the
    verifier's `visible_stated`), and no time between them."""
    from compoworld.compose.naming import stated

    text = "Book it on Tuesday, February 25, 2025 from 17:30 to 18:15 UTC."
    assert stated("2025-02-25T17:30:00Z", text) and stated("2025-02-25T18:15:00Z", text)
    assert not stated("2025-02-25T17:45:00Z", text)
    assert not stated("2025-02-26T18:15:00Z", text)


def test_a_utc_time_is_stated_as_the_clock_time_of_a_world_city():
    """A meeting said in its guest's time ("from 10:00 to 11:00 Tokyo time") states its UTC
    start and end; another hour, another day or a city the world does not know does not."""
    from compoworld.compose.naming import stated

    text = "Book it on Monday, March 10, 2025 from 10:00 to 11:00 Tokyo time, please."
    assert stated("2025-03-10T01:00:00Z", text) and stated("2025-03-10T02:00:00Z", text)
    assert not stated("2025-03-10T10:00:00Z", text)
    assert not stated("2025-03-11T01:00:00Z", text)
    assert not stated("2025-03-10T01:00:00Z", text.replace("Tokyo", "Atlantis"))
    said = "Book it on Monday, March 10, 2025 at 14:30 New York time."  # (EDT after March 9)
    assert stated("2025-03-10T18:30:00Z", said) and not stated("2025-03-10T19:30:00Z", said)


def test_a_value_inside_an_object_is_said_by_its_own_name():
    """A Google Calendar MCP booking was asked "with events 0 end ... and events 0 start"."""
    from compoworld.compose.naming import param_words

    assert param_words("events[0].end", "") == "end"
    assert param_words("message.subject", "message") == "subject"
    assert param_words("personalizations[0].to[0].email", "") == "to email"
    assert param_words("start.dateTime", "") == "start date time"  # (with its holder)
