"""CRM: contacts (people at companies) and the sales deals attached to them."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Literal

from pydantic import Field

from compoworld.services.builtin.common import (
    Amount,
    CurrencyCode,
    EmailAddress,
    Name,
    Person,
    PhoneNumber,
    Record,
    matches,
)
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict

Stage = Literal["lead", "qualified", "proposal", "won", "lost"]
CLOSED = ("won", "lost")


class Contact(Record):
    """One person in the CRM."""

    id: str = Field(description="Contact id.")
    first_name: str = Field(description="Given name.")
    last_name: str = Field(description="Family name.")
    email: EmailAddress = Field(description="Email address (unique across contacts).")
    phone: PhoneNumber | None = Field(default=None, description="Phone number, E.164.")
    company: str | None = Field(default=None, description="Company the person works for.")
    job_title: str | None = Field(default=None, description="Job title at that company.")
    city: str | None = Field(default=None, description="City the person is based in.")


class Deal(Record):
    """One sales opportunity with a contact."""

    id: str = Field(description="Deal id.")
    contact_id: str = Field(description="Id of the contact the deal is with.")
    title: str = Field(description="Short name of the deal.")
    amount: float = Field(description="Expected value of the deal.")
    currency: str = Field(description="ISO 4217 currency code of the amount.")
    stage: Stage = Field(description="Pipeline stage; won and lost deals are closed.")
    close_date: date | None = Field(default=None, description="Day the deal was closed.")


class CrmToolkit(Toolkit):
    """A customer relationship manager: look up, add and edit contacts, and track the
    deals in the sales pipeline."""

    name = "crm"
    title = "CRM"
    domain = "customer_relation"
    resources = {"contacts": Contact, "deals": Deal}

    @tool(effect="read", resource="contacts")
    def search_contacts(
        self, query: str | None = None, company: str | None = None, city: str | None = None
    ) -> list[Contact]:
        """Search contacts by name, email, phone, company or city.

        Args:
            query: Text to look for in names, email and phone (case-insensitive).
            company: Only contacts at this company (exact name, any case).
            city: Only contacts in this city (any case).

        Returns:
            The matching contacts.
        """
        return [
            c for c in self.scan("contacts")
            if (company is None or (c.company or "").lower() == company.lower())
            and (city is None or (c.city or "").lower() == city.lower())
            and matches(query, f"{c.first_name} {c.last_name}", c.email, c.phone)
        ]

    @tool(effect="read", resource="contacts")
    def get_contact(self, contact_id: str) -> Contact:
        """Read one contact.

        Args:
            contact_id: Id of the contact.

        Returns:
            The contact.
        """
        return self.load("contacts", contact_id)

    @tool(effect="create", resource="contacts")
    def create_contact(
        self,
        first_name: Name,
        last_name: Name,
        email: EmailAddress,
        phone: PhoneNumber | None = None,
        company: str | None = None,
        job_title: str | None = None,
        city: str | None = None,
    ) -> Contact:
        """Add a contact; its email must not belong to another contact.

        Args:
            first_name: Given name.
            last_name: Family name.
            email: Email address.
            phone: Phone number in E.164 form (e.g. +14155550123).
            company: Company the person works for.
            job_title: Job title at that company.
            city: City the person is based in.

        Returns:
            The new contact.
        """
        self._check_email_free(email, None)
        contact = Contact(id=self.new_id("contacts"), first_name=first_name,
                          last_name=last_name, email=email, phone=phone, company=company,
                          job_title=job_title, city=city)
        self.commit(("contacts", contact))
        return contact

    @tool(effect="update", resource="contacts")
    def update_contact(
        self,
        contact_id: str,
        email: EmailAddress | None = None,
        phone: PhoneNumber | None = None,
        company: str | None = None,
        job_title: str | None = None,
        city: str | None = None,
    ) -> Contact:
        """Change a contact's details; fields left out stay as they are.

        Args:
            contact_id: Id of the contact.
            email: New email address (must not belong to another contact).
            phone: New phone number in E.164 form.
            company: New company.
            job_title: New job title.
            city: New city.

        Returns:
            The contact after the change.
        """
        contact = self.load("contacts", contact_id)
        if email is not None:
            self._check_email_free(email, contact_id)
        changes = {"email": email, "phone": phone, "company": company, "job_title": job_title,
                   "city": city}
        contact = self.changed(contact, **{k: v for k, v in changes.items() if v is not None})
        self.commit(("contacts", contact))
        return contact

    @tool(effect="delete", resource="contacts")
    def delete_contact(self, contact_id: str) -> Contact:
        """Delete a contact that has no open deals.

        Args:
            contact_id: Id of the contact.

        Returns:
            The contact that was deleted.
        """
        contact = self.load("contacts", contact_id)
        open_deals = [d.id for d in self.scan("deals")
                      if d.contact_id == contact_id and d.stage not in CLOSED]
        if open_deals:
            raise Conflict(f"Contact {contact_id} still has open deals ({', '.join(open_deals)});"
                           " mark them won or lost with crm__update_deal_stage first.")
        self.remove("contacts", contact_id)
        return contact

    @tool(effect="read", resource="deals")
    def list_deals(self, contact_id: str | None = None, stage: Stage | None = None) -> list[Deal]:
        """List deals, optionally of one contact or in one stage.

        Args:
            contact_id: Only deals with this contact.
            stage: Only deals in this stage.

        Returns:
            The matching deals.
        """
        if contact_id is not None:
            self.load("contacts", contact_id)
        return [d for d in self.scan("deals")
                if (contact_id is None or d.contact_id == contact_id)
                and (stage is None or d.stage == stage)]

    @tool(effect="create", resource="deals")
    def create_deal(
        self, contact_id: str, title: Name, amount: Amount, currency: CurrencyCode = "USD"
    ) -> Deal:
        """Open a new deal with a contact, at the lead stage.

        Args:
            contact_id: Id of the contact the deal is with.
            title: Short name of the deal.
            amount: Expected value of the deal.
            currency: ISO 4217 currency code of the amount (e.g. USD, EUR).

        Returns:
            The new deal.
        """
        self.load("contacts", contact_id)
        deal = Deal(id=self.new_id("deals"), contact_id=contact_id, title=title,
                    amount=round(amount, 2), currency=currency, stage="lead")
        self.commit(("deals", deal))
        return deal

    @tool(effect="update", resource="deals")
    def update_deal_stage(self, deal_id: str, stage: Stage) -> Deal:
        """Move a deal to another pipeline stage; won and lost deals are closed for good.

        Args:
            deal_id: Id of the deal.
            stage: The new stage.

        Returns:
            The deal after the change.
        """
        deal = self.load("deals", deal_id)
        if deal.stage in CLOSED:
            raise Conflict(f"Deal {deal_id} is already {deal.stage} and closed; open a new deal "
                           "with crm__create_deal instead.")
        closed = self.now.date() if stage in CLOSED else None
        deal = self.changed(deal, stage=stage, close_date=closed)
        self.commit(("deals", deal))
        return deal

    def _check_email_free(self, email: str, own_id: str | None) -> None:
        for other in self.scan("contacts"):
            if other.email.lower() == email.lower() and other.id != own_id:
                raise Conflict(f"Contact {other.id} already has the email {email}; update that "
                               "contact instead of adding another.")

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """Every person of the pool but the user as a contact, and a few deals."""
        roles = ["CTO", "Head of Sales", "Buyer", "Founder", "Operations Lead", "CFO"]
        contacts = []
        for person in people[1:]:
            contact = Contact(id=self.new_id("contacts"), first_name=person.first_name,
                              last_name=person.last_name, email=person.email,
                              phone=person.phone, company=person.company,
                              job_title=rng.choice(roles), city=person.city)
            self.commit(("contacts", contact))
            contacts.append(contact)
        for contact in rng.sample(contacts, 4):
            stage = rng.choice(["lead", "qualified", "proposal", "won"])
            self.commit(("deals", Deal(
                id=self.new_id("deals"), contact_id=contact.id,
                title=f"{contact.company} renewal", amount=float(rng.randrange(2_000, 60_000, 500)),
                currency=rng.choice(["USD", "EUR"]), stage=stage,
                close_date=self.now.date() - timedelta(days=3) if stage == "won" else None,
            )))
