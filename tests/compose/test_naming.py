"""How requests name an app: the corpus's document titles said as app names."""

import pytest

from compoworld.compose.naming import app_name


@pytest.mark.parametrize(("service", "title", "said"), [
    ("avaza_com", "Avaza API Documentation", "Avaza"),
    ("twilio_com_api", "Twilio - Api", "Twilio"),
    ("velopayments_com", "Velo Payments APIs", "Velo Payments"),
    ("exhibitday_com", "Test the ExhibitDay API with Swagger", "ExhibitDay"),
    ("apideck_com_accounting", "Accounting API", "Apideck Accounting"),  # a unified API
    ("nexmo_com_conversation", "Conversation API", "Vonage Conversation"),
    ("ebay_com_sell_logistics", "Logistics API", "eBay Logistics"),
    ("botschaft_local", "FastAPI", "FastAPI"),  # a name that ends in API keeps it
    ("victorops_com", "VictorOps", "VictorOps"),
    ("bigredcloud_com", "Big Red Cloud API", "Big Red Cloud"),
])
def test_a_document_title_is_said_as_the_app_s_name(service, title, said):
    assert app_name(service, title) == said


def test_a_title_that_is_only_api_words_is_kept():
    assert app_name("change_local", "API V1") == "API V1"
