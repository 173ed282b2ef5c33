"""Infrastructure parameters: what the transport needs, not what the world is about.

Auth keys (`api_key`, `apiKey`, `access_token`, `X-Api-Key`, `Authorization`), api
versions (`api-version`, a `version` whose default or enum looks like one), output formats
(`format`, `alt`, `outputFormat` over json/xml/csv...), JSONP callbacks, pretty-print and
debug flags, field selection (`fields`, `$select`, `$expand`), Google's tracing parameters
(`quotaUser`, `userIp`, `uploadType`, `$.xgafv`), idempotency tokens (`clientToken`),
pagination (`limit`, `per_page`, `page`, `offset`, `cursor`, `nextToken`, `$top`, ...) and
sort knobs (`sort`, `order_by`, an `order` of asc/desc) are filled by the environment:
they never become task facts. A name is read in any style (split_words), and ambiguous
names need evidence from the schema: `key` or `token` is a credential only when its
description says so, `format` only over wire formats or the response, `page` only as a
scalar, `fields` only as a selection (a string or a list of strings, not Airtable's
`fields` object), and `state`, `q`, `name`, `sort_code` are facts.

`relax_infrastructure` makes them optional with a `default` (their own, else from their
enum or example, else a plausible one: the latest api version, `json`, `env-api-key`), so
an agent and the gold calls may leave them out.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Literal

from compoworld.graph.semtypes import split_words

Kind = Literal["auth", "version", "format", "callback", "selection", "tracing",
               "idempotency", "paging", "ordering", "debug", "sender"]
API_KEY_PLACEHOLDER = "env-api-key"
PAGE_SIZE = 20
NO_DEFAULT: Any = object()  # absence is the meaning (no cursor, no callback, all fields)
_FILLED = {"auth", "version", "format", "paging", "debug", "sender"}
# What a message is sent from: an address or a number (no account money is moved from).
_SENDING = frozenset("email address mail phone number sms".split())

_CREDENTIALS = {("api", "key"), ("api", "token"), ("api", "secret"), ("access", "token"),
                ("oauth", "token"), ("auth", "token"), ("bearer", "token"), ("auth", "key"),
                ("subscription", "key"), ("app", "key"), ("client", "secret"), ("apikey",),
                ("authtoken",), ("accesstoken",), ("authorization",), ("auth",), ("apitoken",),
                ("oauth",)}
# A password or a credential a task sets (a new user's password) is a fact: only keys,
# tokens and secrets that the description calls auth are the transport's.
_CREDENTIAL_WORDS = {"key", "token", "secret", "auth", "appid", "signature", "sig"}
_AUTH_TEXT = re.compile(r"api[ _-]?key|authenticat|authori[sz]|oauth|access token|bearer|"
                        r"secret key|app key", re.I)
_ENTITY_TEXT = re.compile(r"\b(identifier|id|name|arn) of\b|\bto be (updated|deleted)\b", re.I)
_VERSION = re.compile(r"v?\d+(\.\d+)*(-preview)?|\d{4}-\d{2}-\d{2}(-preview|-beta)?", re.I)
_VERSION_IN_TEXT = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:-preview)?\b")
_API_VERSION_TEXT = re.compile(r"\bapi version\b|\bversion of the api\b|\bapi verzi", re.I)
_FORMAT_NAMES = {("format",), ("alt",), ("output",), ("output", "format"), ("outputformat",),
                 ("response", "format"), ("return", "format"), ("fmt",), ("data", "format"),
                 ("output", "mode"), ("response", "type")}
_WIRE_FORMATS = {"json", "jsonp", "xml", "csv", "tsv", "html", "xhtml", "text", "txt", "plain",
                 "yaml", "yml", "msgpack", "proto", "protobuf", "media", "atom", "rss",
                 "geojson", "kml", "gml", "js", "javascript", "jsonld", "ndjson", "rdf", "ttl",
                 "turtle", "datatable", "php", "ruby", "python", "shpz", "pdf"}
_RESPONSE_TEXT = re.compile(r"\b(response|output|returned|results?)\b", re.I)
_CALLBACKS = {("callback",), ("jsonp",), ("jsonp", "callback"), ("jsonpcallback",),
              ("json", "callback")}
_DEBUG = {("pretty",), ("pretty", "print"), ("prettyprint",), ("debug",)}
_SELECTION = {("fields",), ("select",), ("expand",), ("embed",), ("opt", "fields"),
              ("opt", "expand"), ("exclude", "fields"), ("include", "fields")}
_TRACING = {("quota", "user"), ("user", "ip"), ("upload", "protocol"), ("upload", "type"),
            ("xgafv",), ("request", "id"), ("correlation", "id"), ("user", "agent")}
_IDEMPOTENCY = {("client", "token"), ("idempotency", "key"), ("idempotency", "token"),
                ("client", "request", "token")}
_PAGE_SIZE = {("limit",), ("per", "page"), ("perpage",), ("page", "size"), ("pagesize",),
              ("top",), ("max", "results"), ("maxresults",), ("max", "items"), ("max", "records"),
              ("max", "keys"), ("num", "results"), ("results", "per", "page"), ("count",),
              ("rows",), ("page", "limit"), ("max", "page", "size"), ("take",),
              ("page", "length"), ("list", "size")}
_PAGE_NUMBER = {("page",), ("page", "number"), ("pagenumber",), ("page", "no"),
                ("page", "index")}
_PAGE_OFFSET = {("offset",), ("skip",), ("start", "index"), ("page", "offset"), ("skip", "pages")}
_CURSORS = {("cursor",), ("page", "token"), ("pagetoken",), ("next", "token"), ("nexttoken",),
            ("next", "page", "token"), ("continuation", "token"), ("continuation",),
            ("marker",), ("next", "marker"), ("starting", "after"), ("ending", "before"),
            ("start", "cursor"), ("page", "cursor"), ("skiptoken",), ("skip", "token"),
            ("search", "after")}
_PAGING_TEXT = re.compile(r"paginat|\bpage\b|next set|next page|continu", re.I)
_CURSOR_TEXT = re.compile(r"paginat|next set|next page|continu|previous (call|request)", re.I)
_SORT_TAILS = {"by", "order", "dir", "direction", "field", "fields", "column", "asc", "desc",
               "null", "nulls", "hide", "ascending", "descending", "mode", "type"}
_ORDER_VALUES = {"asc", "desc", "ascending", "descending", "forwards", "backwards", "newest",
                 "oldest", "forward", "backward", "reverse"}
_ORDER_TEXT = re.compile(r"sort|ascending|descending|by which to order|order of the|ordering",
                         re.I)


def infrastructure_kind(name: str, schema: Any = None, location: str | None = None
                        ) -> Kind | None:
    """What kind of infrastructure parameter `name` (with its JSON Schema) is, or None when
    it is a fact of the task. `location` is the OpenAPI `in` when known (`header`, `query`,
    `path`, `body`): a body field is never a version, a header is transport more often."""
    schema = schema if isinstance(schema, dict) else {}
    words = _words(name)
    if not words:
        return None
    text = str(schema.get("description") or "")
    if _is_credential(words, schema, text, location):
        return "auth"
    if _is_version(words, schema, text, location):
        return "version"
    if words in _FORMAT_NAMES and _is_format(schema, text):
        return "format"
    if words in _CALLBACKS and _is_text(schema) and schema.get("format") != "uri" \
            and not re.search(r"\burl\b|webhook|https?:", text, re.I):
        return "callback"
    if words in _DEBUG or (words == ("raw",) and _json_type(schema) == "boolean"
                           and re.search(r"debug|raw response", text, re.I)):
        return "debug"
    if words in _SELECTION and _is_selection(schema):
        return "selection"
    if words in _TRACING or (location == "header" and words in {("accept",),
                                                                ("content", "type")}):
        return "tracing"
    if words in _IDEMPOTENCY and _is_text(schema):
        return "idempotency"
    if (words[0] == "sender" or (words[0] == "from" and set(words) & _SENDING)) \
            and words[-1] == "id" and len(words) > 1 \
            and _json_type(schema) in ("integer", "number", "string", ""):
        return "sender"  # the account's own sending identity (ClickSend's
        # `from.email_address_id`): no fact of the task, as "from email address id 82180"
    if _is_paging(words, schema, text):
        return "paging"
    if _is_ordering(words, schema, text):
        return "ordering"
    return None


def is_infrastructure(name: str, schema: Any = None, location: str | None = None) -> bool:
    """Whether a parameter is filled by the environment rather than stated by the user."""
    return infrastructure_kind(name, schema, location) is not None


def infrastructure_names(parameters: dict[str, Any]) -> list[str]:
    """The infrastructure parameters of a tool's parameters schema, in schema order."""
    props = parameters.get("properties") if isinstance(parameters, dict) else None
    if not isinstance(props, dict):
        return []
    return [name for name, schema in props.items() if is_infrastructure(name, schema)]


def infrastructure_default(name: str, schema: Any, *, api_version: str | None = None) -> Any:
    """The value the environment fills in for an infrastructure parameter: its own default,
    else its enum or example, else a plausible one; `NO_DEFAULT` when leaving it out is the
    meaning (a cursor, a callback, a sort, a field selection) or nothing plausible fits."""
    schema = schema if isinstance(schema, dict) else {}
    if "default" in schema:
        return schema["default"]
    kind = infrastructure_kind(name, schema)
    if kind not in _FILLED:
        return NO_DEFAULT  # an `expand` or `sort` left out changes nothing; one filled does
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        if kind == "version":
            return max(enum, key=lambda v: _version_key(str(v)))
        wire = [v for v in enum if isinstance(v, str) and v.lower() == "json"]
        return wire[0] if wire else enum[0]
    if _json_type(schema) == "boolean":
        return False
    example = schema.get("example")
    if kind == "auth":
        return _placeholder(schema) or (example if isinstance(example, str) else NO_DEFAULT)
    if kind == "version":
        found = _VERSION_IN_TEXT.findall(str(schema.get("description") or ""))
        value = api_version or (max(found, key=_version_key) if found else None) or (
            example if isinstance(example, str) else None)
        return value if value is not None else NO_DEFAULT
    if kind == "format":
        return "json" if _fits_text("json", schema) else NO_DEFAULT
    if kind == "paging":
        return _paging_default(_words(name), schema)
    if kind == "sender":  # the account's first sending identity
        return example if example is not None else (
            1 if _json_type(schema) in ("integer", "number") else "default")
    return NO_DEFAULT


def relax_infrastructure(parameters: dict[str, Any], *, api_version: str | None = None
                         ) -> dict[str, Any]:
    """`parameters` (a tool's JSON Schema object) with its infrastructure parameters out of
    `required` and given a `default` where one fits (`infrastructure_default`; `api_version`
    is the document's, for an api-version parameter that names none). Returns a new dict;
    the input is left as it was."""
    names = infrastructure_names(parameters)
    if not names:
        return parameters
    out = copy.deepcopy(parameters)
    props = out["properties"]
    for name in names:
        value = infrastructure_default(name, props[name], api_version=api_version)
        if value is not NO_DEFAULT and "default" not in props[name]:
            props[name] = {**props[name], "default": value}
    if isinstance(out.get("required"), list):
        out["required"] = [r for r in out["required"] if r not in names]
    return out


def _words(name: str) -> tuple[str, ...]:
    """Words of a name without a loader's clash prefix (`body_`), a header's `x-` or
    Asana's `opt_`: `X-Api-Key` -> (api, key), `opt_pretty` -> (pretty,)."""
    words = tuple(split_words(name))
    if name.startswith(("body_", "query_")) and len(words) > 1:
        words = words[1:]
    if len(words) > 1 and words[0] in ("x", "opt"):
        words = words[1:]
    if words[:3] == ("ocp", "apim", "subscription"):
        words = words[2:]
    return words


def _json_type(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    return kind if isinstance(kind, str) else ""


def _is_text(schema: dict[str, Any]) -> bool:
    return _json_type(schema) in ("string", "")


def _is_scalar(schema: dict[str, Any]) -> bool:
    return _json_type(schema) in ("string", "integer", "number", "")


def _is_credential(words: tuple[str, ...], schema: dict[str, Any], text: str,
                   location: str | None) -> bool:
    if not _is_text(schema) or _ENTITY_TEXT.search(text):
        return False  # `api_Key` of API Gateway names the key resource to update: a fact
    if words[-1] in ("id", "ids", "name", "arn", "sid", "type") or words[0] == "id" \
            or words in _CURSORS:
        return False  # `authorizer_id`, `authorization_rule_name`, `id_auth`, `next_token`
    if schema.get("enum"):
        return False  # `apiKeySource` of HEADER or AUTHORIZER: a setting, not a secret
    if words[-2:] in _CREDENTIALS or words in _CREDENTIALS:
        return True
    if (words[-1] in _CREDENTIAL_WORDS or words[:2] in _CREDENTIALS) and _AUTH_TEXT.search(text):
        return not _CURSOR_TEXT.search(text)  # `apiKey_3dcart`: "3DCart API Key"
    return location == "header" and words[-1] in ("key", "token")


def _is_version(words: tuple[str, ...], schema: dict[str, Any], text: str,
                location: str | None) -> bool:
    if location == "body" or not _is_text(schema):
        return False
    if words in (("api", "version"), ("apiversion",)):
        return True
    if words not in (("version",), ("v",)):
        return False
    values = [v for v in [schema.get("default"), *(schema.get("enum") or [])] if v is not None]
    if values:
        return all(isinstance(v, str) and _VERSION.fullmatch(v) for v in values)
    return bool(_API_VERSION_TEXT.search(text))


def _is_format(schema: dict[str, Any], text: str) -> bool:
    if not _is_text(schema):
        return False  # `alt` as a height in metres
    values = [v for v in [schema.get("default"), *(schema.get("enum") or [])]
              if v not in (None, "")]
    if values and all(isinstance(v, str) and v.lower() in _WIRE_FORMATS for v in values):
        return True
    return bool(_RESPONSE_TEXT.search(text))


def _is_selection(schema: dict[str, Any]) -> bool:
    kind = _json_type(schema)
    if kind == "array":
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return _json_type(items) in ("string", "")
    return kind in ("string", "") or (kind == "integer" and set(schema.get("enum") or [])
                                      <= {0, 1})


def _is_paging(words: tuple[str, ...], schema: dict[str, Any], text: str) -> bool:
    if not _is_scalar(schema) or schema.get("format") in ("date", "date-time", "dateTime"):
        return False
    if words in _CURSORS or (words in {("token",), ("after",), ("before",), ("position",)}
                             and _PAGING_TEXT.search(text) and _is_text(schema)):
        return True
    numeric = _json_type(schema) in ("integer", "number") or bool(
        _is_text(schema) and re.fullmatch(r"\d+", str(schema.get("default", "0"))))
    if words in _PAGE_SIZE or words in _PAGE_NUMBER or words in _PAGE_OFFSET:
        # `offset` of Asana is a token; a `count` or `rows` that is text is a fact
        return numeric or words in (("offset",), ("limit",), ("page",))
    if words in {("start",), ("size",), ("max",)}:
        return numeric and bool(_PAGING_TEXT.search(text) or re.search(
            r"number of|records|results|row", text, re.I))
    if words in {("from",), ("to",)}:  # gisgraphy's pagination index; else a range
        return numeric and bool(re.search(r"paginat", text, re.I))
    return False


def _is_ordering(words: tuple[str, ...], schema: dict[str, Any], text: str) -> bool:
    if words[0] in ("sort", "sortby", "sortorder", "sortdir", "orderby") and (
            len(words) == 1 or words[1] in _SORT_TAILS):
        return True
    if words in (("order", "by"), ("order", "direction"), ("ascending",), ("descending",)):
        return True
    if words in (("order",), ("direction",), ("dir",)) and _is_text(schema):
        enum = [str(v).lower() for v in schema.get("enum") or []]
        if enum:
            return set(enum) <= _ORDER_VALUES or bool(_ORDER_TEXT.search(text))
        return bool(_ORDER_TEXT.search(text))
    return False


def _fits_text(value: str, schema: dict[str, Any]) -> bool:
    """Whether a string placeholder satisfies the schema's type, length and pattern."""
    if not _is_text(schema):
        return False
    if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
        return False
    pattern = schema.get("pattern")
    try:
        return not isinstance(pattern, str) or re.search(pattern, value) is not None
    except re.error:
        return False


def _placeholder(schema: dict[str, Any]) -> str | None:
    """`env-api-key`, padded or cut to the schema's length bounds; None if it cannot fit."""
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    value = API_KEY_PLACEHOLDER.ljust(low if isinstance(low, int) else 0, "0")
    value = value[:high] if isinstance(high, int) and high > 0 else value
    return value if _fits_text(value, schema) else None


def _paging_default(words: tuple[str, ...], schema: dict[str, Any]) -> Any:
    """First page, offset 0, a page of 20 (within the schema's bounds); no cursor."""
    if words in _CURSORS or words in {("token",), ("after",), ("before",), ("position",)}:
        return NO_DEFAULT
    low, high = schema.get("minimum"), schema.get("maximum")
    if words in _PAGE_NUMBER:
        value = low if isinstance(low, int) else 1
    elif words in _PAGE_OFFSET or words == ("start",):
        value = low if isinstance(low, int) else 0
    else:
        value = PAGE_SIZE
        value = max(value, low) if isinstance(low, int | float) else value
        value = min(value, high) if isinstance(high, int | float) else value
    if _json_type(schema) == "string":
        return str(value) if _fits_text(str(value), schema) else NO_DEFAULT
    return value


def _version_key(value: str) -> tuple:
    """Dates and dotted numbers compare by their numbers; previews sort before releases."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", value))
    return (numbers, "preview" not in value.lower() and "beta" not in value.lower())
