"""Payments: the user's money accounts and the transfers paid from them to people by email."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Literal

from pydantic import Field

from compoworld.services.builtin.common import (
    Amount,
    CurrencyCode,
    DateTime,
    EmailAddress,
    Person,
    Record,
)
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import BadRequest, Conflict, Unprocessable

Status = Literal["completed", "refunded"]


class Account(Record):
    """One of the user's money accounts (a balance in one currency)."""

    id: str = Field(description="Account id.")
    name: str = Field(description="Name of the account, e.g. Everyday EUR.")
    currency: str = Field(description="ISO 4217 currency code the account holds.")
    balance: float = Field(description="Money available in the account.")


class Transfer(Record):
    """One payment from an account to a payee."""

    id: str = Field(description="Transfer id.")
    account_id: str = Field(description="Id of the account the money came from.")
    payee_email: EmailAddress = Field(description="Email address of the person paid.")
    amount: float = Field(description="Amount paid.")
    currency: str = Field(description="ISO 4217 currency code of the amount.")
    memo: str | None = Field(default=None, description="Note for the payee, if any.")
    status: Status = Field(description="completed, or refunded (money back in the account).")
    created_at: DateTime = Field(description="When the transfer was made (UTC).")


class PaymentsToolkit(Toolkit):
    """A payments wallet: check account balances, pay people by email and refund payments."""

    name = "payments"
    title = "Payments"
    domain = "payment"
    resources = {"accounts": Account, "transfers": Transfer}

    @tool(effect="read", resource="accounts")
    def list_accounts(self) -> list[Account]:
        """List the user's accounts with their balances.

        Returns:
            The accounts.
        """
        return self.scan("accounts")

    @tool(effect="read", resource="accounts")
    def get_account(self, account_id: str) -> Account:
        """Read one account and its balance.

        Args:
            account_id: Id of the account.

        Returns:
            The account.
        """
        return self.load("accounts", account_id)

    @tool(effect="action", resource="transfers")
    def transfer_funds(
        self,
        account_id: str,
        payee_email: EmailAddress,
        amount: Amount,
        currency: CurrencyCode | None = None,
        memo: str | None = None,
    ) -> Transfer:
        """Pay someone by email from one of the user's accounts.

        Args:
            account_id: Id of the account to pay from.
            payee_email: Email address of the person to pay.
            amount: Amount to pay (positive, at most two decimals).
            currency: ISO 4217 currency code; must be the account's (the default).
            memo: Note for the payee.

        Returns:
            The completed transfer.
        """
        account = self.load("accounts", account_id)
        if round(amount, 2) != amount:
            raise BadRequest(f"invalid amount: {amount} has more than two decimals.")
        currency = currency or account.currency
        if currency != account.currency:
            raise Unprocessable(f"Account {account_id} holds {account.currency}, not {currency};"
                                f" pay in {account.currency} or use another account.")
        if amount > account.balance:
            raise Conflict(f"Insufficient funds: account {account_id} has {account.balance:.2f} "
                           f"{account.currency} and the transfer needs {amount:.2f}; pay less or "
                           "use another account.")
        transfer = Transfer(id=self.new_id("transfers"), account_id=account_id,
                            payee_email=payee_email, amount=amount, currency=currency, memo=memo,
                            status="completed", created_at=self.now)
        account = self.changed(account, balance=round(account.balance - amount, 2))
        self.commit(("transfers", transfer), ("accounts", account))
        return transfer

    @tool(effect="read", resource="transfers")
    def list_transfers(
        self,
        account_id: str | None = None,
        payee_email: EmailAddress | None = None,
        status: Status | None = None,
    ) -> list[Transfer]:
        """List transfers, newest first, optionally filtered.

        Args:
            account_id: Only transfers from this account.
            payee_email: Only transfers to this person.
            status: Only transfers with this status.

        Returns:
            The matching transfers, newest first.
        """
        if account_id is not None:
            self.load("accounts", account_id)
        found = [t for t in self.scan("transfers")
                 if (account_id is None or t.account_id == account_id)
                 and (payee_email is None or t.payee_email.lower() == payee_email.lower())
                 and (status is None or t.status == status)]
        return sorted(found, key=lambda t: (t.created_at, t.id), reverse=True)

    @tool(effect="read", resource="transfers")
    def get_transfer(self, transfer_id: str) -> Transfer:
        """Read one transfer.

        Args:
            transfer_id: Id of the transfer.

        Returns:
            The transfer.
        """
        return self.load("transfers", transfer_id)

    @tool(effect="action", resource="transfers")
    def refund_transfer(self, transfer_id: str) -> Transfer:
        """Refund a completed transfer: the money goes back into its account.

        Args:
            transfer_id: Id of the transfer.

        Returns:
            The refunded transfer.
        """
        transfer = self.load("transfers", transfer_id)
        if transfer.status == "refunded":
            raise Conflict(f"Transfer {transfer_id} was already refunded; nothing to do.")
        account = self.load("accounts", transfer.account_id)
        account = self.changed(account, balance=round(account.balance + transfer.amount, 2))
        transfer = self.changed(transfer, status="refunded")
        self.commit(("transfers", transfer), ("accounts", account))
        return transfer

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """Two accounts (USD and EUR) and a few past transfers to people of the pool."""
        accounts = [Account(id=self.new_id("accounts"), name=name, currency=currency,
                            balance=float(rng.randrange(800, 5000, 25)))
                    for name, currency in (("Everyday USD", "USD"), ("Travel EUR", "EUR"))]
        self.commit(*(("accounts", a) for a in accounts))
        memos = ["Dinner", "Concert tickets", "Rent share", "Birthday gift", None]
        for days in range(1, 5):
            account = rng.choice(accounts)
            self.commit(("transfers", Transfer(
                id=self.new_id("transfers"), account_id=account.id,
                payee_email=rng.choice(people[1:]).email,
                amount=float(rng.randrange(10, 200)), currency=account.currency,
                memo=rng.choice(memos), status="refunded" if days == 4 else "completed",
                created_at=self.now - timedelta(days=days * 2),
            )))
