"""`Idempotency-Key` on any POST (API.md "Retries, errors, seeds as text"; service/idempotency.py
keeps the keys): the same key with the same request from the same caller answers its first
answer again, with `Idempotent-Replayed: true`; the same key with another request is refused
(422), and one whose first request is still being answered is told to retry (409)."""

import json
import logging
import re
from http import HTTPStatus

from flask import Flask, Response, g, request

import service
from service.errors import IDEMPOTENCY_KEY_IN_USE, IDEMPOTENCY_KEY_REUSED, INVALID_HEADER
from service.idempotency import Answer, Held, Reused
from service.matches import MATCH_ID
from service.store import hash_token

from . import bodies
from .blueprint import PROBLEM_TYPES
from .bodies import read_body
from .errors import problem, type_uri
from .headers import sent_token
from .limits import client

log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
KEY = re.compile(r"[\x21-\x7e]{1,255}")  # 1 to 255 visible characters
# What an answer says beyond its status and body, and is said again when it is replayed.
KEPT_HEADERS = ("Content-Type", "Location", "ETag", "Cache-Control", "Vary", "Retry-After")
PARAMETER = {"name": HEADER, "in": "header", "required": False,
             "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                        "pattern": "^[\\x21-\\x7e]+$"},
             "description": "Send the same key again with the same request (a retry after a "
                            "dropped connection) to get the first answer again rather than act "
                            "twice; kept 24 h. The same request: the same method, path, query "
                            "and body, a JSON body compared as the JSON it holds (its keys in "
                            "any order, spaces or none)"}
REPLAYED_HEADER = {"description": "`true` on an answer given again for an Idempotency-Key "
                                  "already answered: the request was not applied twice",
                   "schema": {"type": "string", "enum": ["true"]}}
# The refusals no key ever holds: a token is judged before its key (401), a key is taken once the
# body is read (408: it never came whole), and a rate limit passes (429, as the server's faults).
NEVER_KEPT = {401, 408, 429}


def caller() -> str:
    """Whose key it is: whoever sent this token (however the header writes "Bearer", as the
    operations read it), or this Authorization as sent where it holds none (the operation
    judges it, not this), else the client's address."""
    token = sent_token()
    sent = f"Bearer {token}" if token else request.headers.get("Authorization")
    return f"auth {hash_token(sent)}" if sent else f"address {client(request.remote_addr or '')}"


# The POSTs that need a match's token (documented so): with no token of that match they are
# refused (401) before a key is looked at, and nothing is done that a retry could repeat.
NEED_TOKEN: set[str] = set()
# The POSTs that take no body (as documented): a body sent with one is ignored, with a key too.
NO_BODY: set[str] = set()


def documented_path() -> str | None:
    """The request's operation's path as the document writes it, if it has one."""
    if request.url_rule is None:
        return None
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", request.url_rule.rule)


def without_token() -> bool:
    """The operation needs a token of its match, and the one sent (if any) is none of its."""
    if documented_path() not in NEED_TOKEN:
        return False
    token = sent_token()
    match_id = (request.view_args or {}).get("match_id", "")
    match = service.storage().load(match_id) if MATCH_ID.fullmatch(match_id) else None
    return not (token and match is not None
                and (match.seat_of(token) is not None or match.is_host(token)))


def meant(body: bytes) -> bytes:
    """A body as the request means it: JSON the server reads written one way (its keys sorted,
    no spaces), so that a retry written again by the client (another JSON library, another key
    order) is the same request. A body the server does not read as it reads this one's JSON (not
    JSON, a key given twice, a number it refuses) stays its bytes."""
    try:
        value = bodies.DECODER.decode(bodies.text_of(body))
    except (ValueError, RecursionError):  # a key given twice, NaN and bad UTF-8 included
        return body
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8", "surrogatepass")


def before() -> Response | None:
    key = request.headers.get(HEADER)
    if key is None or request.method != "POST" or without_token():
        return None
    if not KEY.fullmatch(key):
        message = f"{HEADER} is 1 to 255 visible characters (letters, digits, punctuation)."
        return problem(INVALID_HEADER, message, {HEADER: [message]})
    # the request as it was asked: its query too, and its body where its operation reads one (a
    # POST that takes none ignores what is sent, with a key as without)
    query = request.query_string.decode("latin-1")
    asked = (f"{request.method} {request.path}{'?' if query else ''}{query}\n".encode()
             + (b"" if documented_path() in NO_BODY else meant(read_body(request))))
    try:
        found = service.idempotency_keys().claim(caller(), key, asked)
    except Reused:
        message = (f"This {HEADER} was used with another request: send a new key with a new "
                   "request.")
        return problem(IDEMPOTENCY_KEY_REUSED, message, {HEADER: [message]})
    except Held:
        return problem(IDEMPOTENCY_KEY_IN_USE, f"A request with this {HEADER} is still being "
                       "answered; try again in a moment.", headers={"Retry-After": "1"})
    if isinstance(found, Answer):
        return Response(found.body, status=found.status, headers={**found.headers,
                                                                  REPLAYED: "true"})
    g.idempotency_claim = found
    return None


def after(response: Response) -> Response:
    claim = g.pop("idempotency_claim", None)
    if claim is None:
        return response
    passing = response.status_code >= 500 or response.status_code == 429 or response.is_streamed
    try:
        if passing:
            service.idempotency_keys().release(claim)  # passing: a retry runs afresh
        else:
            service.idempotency_keys().keep(claim, Answer(
                response.status_code,
                {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers},
                response.get_data()))
    except Exception as exc:  # noqa: BLE001  (the answer stands; only its replay is lost)
        if passing:
            log.warning("an %s could not be released (this worker releases it at its next "
                        "claim; a retry meanwhile is told it is in use): %s", HEADER, exc)
        else:
            log.warning("the answer to an %s could not be kept: %s", HEADER, exc)
    return response


def document(spec) -> None:
    """Every POST documents the header, the 422 of a key that is not one or was used with another
    request and the 409 of a key still being answered; the POSTs that need a token are noted."""
    for path, item in spec._paths.items():
        if "post" in item:
            item["post"].setdefault("parameters", []).append(PARAMETER)
            item["post"]["responses"].setdefault(
                "422", {"$ref": "#/components/responses/UNPROCESSABLE_ENTITY"})
            item["post"]["responses"].setdefault(
                "409", {"$ref": "#/components/responses/CONFLICT"})
            # its key is kept in the database, which may be away
            item["post"]["responses"].setdefault(
                "503", {"$ref": "#/components/responses/SERVICE_UNAVAILABLE"})
            for status, response in item["post"]["responses"].items():
                if status.startswith("2") and "$ref" not in response:
                    response.setdefault("headers", {})[REPLAYED] = REPLAYED_HEADER
            item["post"].setdefault(PROBLEM_TYPES, []).extend(
                map(type_uri, (INVALID_HEADER, IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE)))
            if item["post"].get("security") == [{"seatToken": []}]:
                NEED_TOKEN.add(path)
            if "requestBody" not in item["post"]:
                NO_BODY.add(path)
    components = spec.components
    # a refusal is kept and answered again too: the shared error responses a POST may give
    for name, response in [*components.responses.items(), *components.responses_lazy.items()]:
        status = HTTPStatus[name] if name in HTTPStatus.__members__ else None
        if status and 400 <= status < 500 and status not in NEVER_KEPT:
            response.setdefault("headers", {})[REPLAYED] = {
                **REPLAYED_HEADER, "description": "`true` on a POST's answer given again for an "
                                                  "Idempotency-Key already answered: the request "
                                                  "was not applied twice"}
    conflict = components.responses_lazy.get("CONFLICT") or components.responses["CONFLICT"]
    conflict.setdefault("headers", {})["Retry-After"] = {
        "description": f"With `idempotency-key-in-use`: whole seconds to wait before sending the "
                       f"request with its {HEADER} again; with `study-not-done`, while the "
                       f"report of a study that ended is being drawn: before asking for it again",
        "schema": {"type": "integer", "minimum": 1}}


def init_app(app: Flask) -> None:
    """Before the rate limits: a replay spends no budget."""
    app.before_request(before)
    app.after_request(after)
