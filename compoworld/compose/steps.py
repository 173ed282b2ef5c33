"""The step vocabulary workflow definitions are written in: the common steps (a lead, a
sale, a message to the person the workflow is about, a booked payment, a refund) and the
words that tell one act from another. A definition imports what it needs from here; a
step only one workflow needs is written in its own definition.
"""

from __future__ import annotations

from compoworld.compose.workflow import MAKE, READ, SETTLED, Operator, Step

# What reaches a new contact: who they are and how to reach them.
CONTACT = ("email", "phone", "name", "first_name", "last_name", "username")
# Where a new lead goes: a CRM's contact, a shop's or the books' customer, no job applicant
# and no user of a learning or feedback app.
CUSTOMERS = frozenset("contact contacts customer customers lead leads prospect prospects "
                      "client clients person persons people subscriber subscribers".split())
# What looks a person up in another app: a value that names one person (two people share
# a name; "the person with the same name as the ticket" is nobody's question).
KEYS = ("email", "phone", "username")
PAY = ("amount", "currency", "email", "name")
PARTY = ("name", "email", "company", "phone", "first_name", "last_name")  # whose money it is
# A variant (a price of a size or colour) is no listing of a product: a price-only
# variant would be checked as "a product is created".
VARIANTS = frozenset({"variant", "variants"})
# Who gets our newsletter: a list's subscriber, never a project's or a team's member (a
# project member of a time-tracking app "just subscribed to our newsletter" is nobody's
# news).
SUBSCRIBERS = frozenset("subscriber subscribers audience audiences newsletter "
                        "newsletters".split())
# Who a meeting is with, on the booking: a phone alone names no one (an appointment "with
# them" that holds only a number may hold a distractor's customer's number too).
WHO = ("name", "email", "first_name", "last_name")
# What the tool of a step that sends, books or refunds calls itself.
SENDS = frozenset("send message messages email emails mail sms text chat conversation reply "
                  "comment notify".split())
BOOKS = frozenset("payment transaction journal entry ledger deposit receipt sale income "
                  "charge".split())
# Orders that are no sale: a hosted-number order, a certificate or domain order, and a cart
# or basket nobody has checked out yet (a Magento cart "came in" and was thanked for as an
# order).
NOT_SALES = frozenset("hosted number numbers domain domains certificate certificates sim "
                      "sims cart carts basket baskets".split())
COLLEAGUES = frozenset("user users employee employees staff member members team colleague "
                       "colleagues".split())  # no shop customer, nor a sales app's `people`
# ... nor an app's end user, a vendor's user or a lead: `invite_end_user` is for customers
NOT_COLLEAGUES = frozenset("end customer customers consumer consumers visitor visitors vendor "
                           "vendors client clients guest guests lead leads prospect prospects "
                           "subscriber subscribers".split())
# An account statement mailed to a customer is no welcome or invitation of theirs; a
# draft is no message sent ("send them an email via Gmail" was checked as a Gmail draft).
STATEMENTS = frozenset({"statement", "statements", "draft", "drafts"})
# What a customer paid is a payment of theirs, no expense, category or tax line.
NOT_PAID = frozenset("expense expenses category categories tax taxes".split())
# ... and a payment we confirm to its payer came in from them: no expense of ours, no
# subscription (a plan, not a payment: "closing out the subscription" and confirming a
# payment read as two things)
NOT_RECEIVED = NOT_PAID | frozenset("subscription subscriptions payout payouts".split())
QUOTES = frozenset("quote quotes estimate estimates proposal proposals".split())  # no bill
# A customer's invoice, no supplier's bill: an order is not billed to us, nor is a receipt
# sent for a bill we pay.
SALES_INVOICE = QUOTES | {"bill", "bills"}
REFUNDS = frozenset("refund refunds credit payout reversal reverse transfer transfers".split())
# A customer's appointment is no copy of a calendar event: an event "blocked out" as a
# consumer booking holds no customer.
APPOINTMENTS = frozenset("appointment appointments booking bookings".split())
# A company we start working with is a client: a client "set up as a supplier so we can
# pay their invoices" is the wrong side of the books.
SUPPLIERS = frozenset("supplier suppliers vendor vendors".split())

# A deal is a sale in the making: a CRM's deal or opportunity, never a project or a to-do
# (a Jira project named by its lead's name was "followed up on" as a deal).
DEALS = frozenset("deal deals opportunity opportunities".split())
PROJECTS = frozenset({"project", "projects"})
# A to-do someone does: a follow-up task, no project, milestone or deal
TODOS = frozenset("task tasks todo todos".split())
# where a team files a follow-up (`Step.filed`): a customer's with its clients and sales, a
# colleague's with the team's own work, a reported problem with support
CLIENT_WORK = frozenset("client customer sales crm portal partner".split())
TEAM_WORK = frozenset("team internal intranet office".split())
# ... and where each is never filed, where another place is: our own back office for a
# customer's (no "Payroll migration"), the customer-facing desks for a colleague's
BACK_OFFICE = TEAM_WORK | frozenset("payroll hiring recruiting hr benefits".split())
CLIENT_DESKS = CLIENT_WORK | frozenset("support billing".split())
SUPPORT_WORK = frozenset("support customer client portal backlog".split())
DEAL = Step(READ, "task", words=DEALS)
# An issue of a tracker or a code host: no ticket of a helpdesk's own words alone.
ISSUES = frozenset("issue issues ticket tickets bug bugs".split())
COLLEAGUE = Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES)  # one of our staff
# ... as HR knows them: their pay, benefits, leave or contract are no business of a code
# host's, a till's or a sales tool's user list (a payslip notice to a Gitea user, a
# contract reminder to a SalesLoft user read as made up)
PERSONNEL = Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES,
                 not_in=frozenset({"developer_tools", "payment", "customer_relation"}))
# ... as engineering knows them: in a code host, an issue tracker, a project tool or the
# team chat (a code review asked of a SalesLoft user, or an incident handed over to a
# Files.com user, reads as made up)
ENGINEER = Step(READ, "person", words=COLLEAGUES, avoid=NOT_COLLEAGUES,
                only_in=frozenset({"developer_tools", "project_management", "messaging",
                                   "collaboration"}))
NEW_COLLEAGUE = Step(MAKE, "person", CONTACT, words=COLLEAGUES, avoid=NOT_COLLEAGUES)
# A direct message to a colleague: no address added to an account (`user_add_email`), nor
# a chat post made under their username (`username` names the bot that posts). (A task
# app's email record whose only address is its reply-to, `emails_create`, takes no
# colleague's address: a reply-to is ours, `walk._from_us`. Leaving out every tool over
# `emails` for it left Gmail's `send_email` out too, and three apps carried every email to
# a colleague.) It goes out as the user (`Step.personal`), never as the company's brand.
COLLEAGUE_MESSAGE = Step(MAKE, "message", ("email", "phone"), words=SENDS, avoid=STATEMENTS,
                         personal=True)
SALE = Step(READ, "order", avoid=NOT_SALES)  # the order a workflow begins at is a sale
NEW_CONTACT = Step(MAKE, "person", CONTACT, words=CUSTOMERS)  # a lead made a contact
LEAD = Step(READ, "person", words=CUSTOMERS)  # a lead is a customer, no project member
# Who buys from us already (`situations.known`), and a lead or contact who does not yet: a
# welcome or a demo goes to a prospect, never to a customer we have (the request "Tara
# should be set up in our other tools as well" then asked only for a note that they were
# "all set up", with nothing set up anywhere); a referral is asked of a customer.
BUYERS = SETTLED
# ... kept where leads are, never in the books or a till, whose contacts bought from us or
# sold to us (a prospect "who went quiet after our first call" read from Xero's contacts)
PROSPECT = Step(READ, "person", words=CUSTOMERS, avoid=BUYERS,
                not_in=frozenset({"financial", "payment"}))
CUSTOMER = Step(READ, "person", words=BUYERS)
# ... a client with a contract or an account with us, never a web shop's shopper (a renewal
# call and a quarterly business review were booked with API2Cart and Billbee cart customers)
CLIENT = Step(READ, "person", words=BUYERS, not_in=frozenset({"ecommerce"}))
INVOICE = Step(MAKE, "invoice", PAY + ("company",), needs=("amount",), avoid=SALES_INVOICE,
               party=PARTY)  # a sale's invoice, to its customer


def send(*takes: str) -> Step:
    """A message to the person the workflow is about."""
    return Step(MAKE, "message", takes or ("email", "phone"), words=SENDS, avoid=STATEMENTS)


def send_document() -> Step:
    """A message sharing the document the workflow read: it carries the document's link or
    file (a files folder's owner emailed "sharing the document" with no document in it
    shares nothing)."""
    return Step(MAKE, "message", ("url", "filename", "email", "name"), words=SENDS,
                avoid=STATEMENTS, party=("url", "filename"))


def book(*takes: str) -> Step:
    """A payment booked for the amount the workflow carries."""
    return Step(MAKE, "payment", takes or PAY + ("company",), needs=("amount",), words=BOOKS,
                avoid=REFUNDS, party=PARTY)


def refund() -> Step:
    """A refund of the payment found, where it was paid."""
    return Step(MAKE, "payment", ("amount", "currency", "email"), needs=("amount",),
                words=REFUNDS, home=True)


# A meeting among colleagues goes into a calendar: a one-on-one or a postmortem booked in a
# customer-booking app (OnSched's appointments) read as a customer's slot.
TEAM_MEETING = Step(MAKE, "event", ("email", "name", "phone"), party=WHO,
                    only_in=frozenset({"time_management"}))


# Which records a workflow may be asked for (compose/each.py), as a person chooses them.
# A note to customers goes to a segment of them ("every customer whose plan is Gold"); a
# language is no segment (English emails to every contact "whose language is ja" read as
# made up)...
BY_SEGMENT = Operator("select", field="plan tier segment level group lifecycle industry")
# ... an announcement of a place's closing or outage, to the customers of a place
BY_REGION = Operator("select", field="country region city")
# ... a lead's follow-up, to the leads of one source or stage ("every lead from the trade
# show"; a lead's city is nothing to chase them by)
BY_LEAD = Operator("select", field="source lifecycle stage segment industry")
# ... a note to colleagues, to one department or team: an app's permission role ("every
# coadmin") is no team, and a job title no reason for a parking permit
BY_TEAM = Operator("select", field="department team")
BY_PRIORITY = Operator("select", field="priority severity urgency")  # tickets, issues
# ... a notice to the people of one client company ("everyone at Juniper Labs"): what an
# account manager tells a business customer, all its contacts hear
BY_COMPANY = Operator("select", field="company organization organisation employer")
# ... or the records a team labelled for it ("every customer tagged "vip"", "every issue
# labelled "urgent""): a label is a rule only where the workflow names the labels it
# means (a loyalty reward goes to the customers tagged "vip"; a customer tagged "billing"
# is asked for their VAT number, one tagged "internal" is told of no price change)
def tagged(*labels: str) -> Operator:
    """A `select` by the labels a record is filed under (its `tags`), one of `labels`."""
    return Operator("select", field="tags tag labels label", rule=" ".join(labels))


# ... or every record the workflow may act on at all, as its guards say ("every colleague
# who is still active", "every appointment that is still ahead"): a reminder that goes to
# everyone, never a welcome or a new laptop (no one welcomes every active colleague)
EVERY_VALID = Operator("select")
# ... or the first few by a measure: the largest invoices or deals, the customers who
# spent the most (a customer's balance is what they owe: no reason for a referral ask),
# the newest leads, the oldest tickets, the invoices due first, the next meetings
BIGGEST = Operator("rank", field="total amount value", k=4, order="top")
TOP_SPENDERS = Operator("rank", field="spent revenue lifetime purchases", k=4, order="top")
# (a record's creation: Google's "creationTime", a portal's "registrationDate" say it too)
NEWEST = Operator("rank", field="created creation signup joined registered registration", k=4,
                  order="top")
OLDEST = Operator("rank", field="created creation signup joined registered registration", k=4,
                  order="bottom")
DUE_FIRST = Operator("rank", field="due deadline expires expiry", k=4, order="bottom")
NEXT_UP = Operator("rank", field="start", k=4, order="bottom")
