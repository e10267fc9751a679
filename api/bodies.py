"""JSON request bodies, read strictly and loaded by their schema.

A body must say it is JSON (`application/json` or `application/…+json`: otherwise 415, so that a
cross-site form cannot post one blind), be UTF-8, at most 64 KiB however it is sent (413, chunked
too), and be JSON that means one thing: no key twice in an object and no lone surrogate (400:
RFC 8259 leaves both to the reader's whim, I-JSON, RFC 7493, forbids them), and no NaN or
Infinity (400: the json module reads them, RFC 8259 has no such number). A number written with
a zero fraction (1.0, 2e3) is read as the whole number it is, as JSON Schema's `integer` takes
it: so every field that takes a whole number takes it, in this one place. orjson reads the
common body where it reads exactly what the json module does. Then the endpoint's marshmallow
schema loads it, through a loader compiled from that same schema when the endpoint asks for one
(`compiled`)."""

import io
import json
import re
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import flask
import marshmallow as ma
import orjson
from flask_smorest import abort
from gevent import Timeout
from gevent.monkey import is_module_patched
from gunicorn.http.errors import ParseException
from webargs.core import _UNKNOWN_DEFAULT_PARAM
from webargs.flaskparser import FlaskParser
from werkzeug.wsgi import get_content_length

import service
from service.errors import (
    BODY_TOO_LARGE,
    BODY_TOO_SLOW,
    MALFORMED_REQUEST,
    UNSUPPORTED_MEDIA_TYPE,
)

from . import fastload
from .errors import MAX_BODY_BYTES, flatten_messages, summarise

_LOADERS: "weakref.WeakKeyDictionary[ma.Schema, Any]" = weakref.WeakKeyDictionary()
NOT_AN_OBJECT = "Send the request's fields as one JSON object: {\"name\": value, …}."
NOT_ENCODED = ("Send the body as plain JSON, without Content-Encoding: this server does not "
               "unpack a gzipped or otherwise encoded body.")
# What a body that cannot be taken is answered, before its schema judges it.
BODY = (MALFORMED_REQUEST, BODY_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE)


def compiled(schema: ma.Schema) -> ma.Schema:
    """`schema`, whose valid bodies are loaded by a loader compiled from it (api/fastload.py);
    marshmallow still loads every other body and words its errors. For a schema instance that
    lives as long as the app (webargs builds a new instance per request from a class)."""
    _LOADERS[schema] = fastload.compile_loader(schema)
    return schema


class DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        raise DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return obj


class NotANumber(ValueError):
    """NaN, Infinity or -Infinity: the json module reads them, but they are no JSON (RFC 8259)."""

    def __init__(self, constant: str) -> None:
        super().__init__(constant)
        self.constant = constant


def _not_a_number(constant: str) -> Any:
    raise NotANumber(constant)


def _number(text: str) -> int | float:
    """A JSON number written with a fraction or an exponent: the whole number it is, where it is
    one (1.0, 2e3, -7.000: JSON Schema's `integer`, which the document's integers are, and
    what json.dumps writes for a whole float), else the float the json module reads (1.5, and
    1.0000000000000000001, which is no whole number though its float is)."""
    value = float(text)
    if value.is_integer():  # finite, and whole once rounded: see whether it is whole as written
        exact = Decimal(text)
        if exact == exact.to_integral_value():
            return int(exact)
    return value


# One decoder for every body (json.loads with a hook would build one per call).
DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_constant=_not_a_number,
                            parse_float=_number)
# Where a body may hold a number with a fraction or an exponent (or a text that looks so).
_FRACTION = re.compile(rb"[0-9][.eE]")


def _holds_float(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is float:
            return True
        if type(item) is dict:
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
    return False


def _printable(text: str, limit: int = 40) -> str:
    """`text` for a message: shortened, a lone surrogate shown as its escape."""
    text = text if len(text) <= limit else text[:limit - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def lone_surrogate(value: Any) -> str | None:
    """The first string (key or value) in `value` holding half of a UTF-16 pair, if any."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            texts = (item,)
        elif isinstance(item, dict):
            texts = item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for text in texts:
            if any("\ud800" <= c <= "\udfff" for c in text):
                return text
    return None


# Opening brackets a body may hold and still be read by orjson: so it is nested at most this deep,
# where the json module reads it too (deeper, the json module may give up: "nested too deeply").
QUICK_BRACKETS = 256
# A body refused for its declared length is read and dropped before the answer, up to this size
# (_discard); a larger one is answered at once.
DISCARD_BYTES = 1024 * 1024


def quick_json(data: bytes) -> Any:
    """The JSON value of a body that orjson reads exactly as the json module would, else
    `ma.missing`.

    orjson reads a body, checks included, in a third to a half of the time, but keeps the last of
    a key given twice. So its reading counts only when writing it back gives the bytes sent, but
    for the one space json.dumps puts after "," and ":" (JSON.stringify puts none): then no key
    came twice (each would be written back), no space was taken out of a string (it would be
    written back too), no \\u escape was read (so no lone surrogate, which the json module's
    reading refuses) and every number reads alike (an integer too long for orjson comes back as a
    float, written otherwise). A body holding a number with a fraction or an exponent is left to
    the json module too, which reads one that is whole as the whole number (_number)."""
    if data.count(b"[") + data.count(b"{") > QUICK_BRACKETS:
        return ma.missing
    try:
        value = orjson.loads(data)
        written = orjson.dumps(value)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return ma.missing
    if written != data and written != data.replace(b", ", b",").replace(b": ", b":"):
        return ma.missing
    if _FRACTION.search(data) and _holds_float(value):
        return ma.missing
    return value


def text_of(data: bytes) -> str:
    """A body's JSON text: its UTF-8 (UnicodeDecodeError otherwise), less a byte order mark
    before it, which RFC 8259 8.1 lets a reader pass over (Windows PowerShell writes one)."""
    return data.decode("utf-8").removeprefix("\ufeff")


def read_json(data: bytes) -> Any:
    """The JSON value of a body (aborting with 400 when it cannot be read as one)."""
    value = quick_json(data)  # the common case, in a third to a half of the time
    if value is not ma.missing:
        return value
    try:
        value = DECODER.decode(text_of(data))
    except RecursionError:
        abort(400, message="The JSON body is nested too deeply.")
    except UnicodeDecodeError:
        abort(400, message="The body is not UTF-8 text.")
    except DuplicateKey as exc:
        abort(400, message=f"The key \"{_printable(exc.key)}\" appears twice in one object; "
                           "give each key once.")
    except json.JSONDecodeError as exc:
        abort(400, message=f"The body is not valid JSON: {exc.msg} at line "
                           f"{exc.lineno}, column {exc.colno}.")
    except NotANumber as exc:
        abort(400, message=f"The body holds {exc.constant}, which is no JSON number: write "
                           "numbers in digits.")
    except ValueError:  # an integer with more digits than Python will convert
        abort(400, message="The body holds a number too long to read.")
    # Only a \u escape can make a lone surrogate (the UTF-8 was decoded strictly).
    if (b"\\ud" in data or b"\\uD" in data) and (text := lone_surrogate(value)) is not None:
        abort(400, message=f"The body holds half of a character (in \"{_printable(text)}\"): "
                           "a \\ud800-\\udfff escape must be one of a pair.")
    return value


def read_body(req: flask.Request) -> bytes:
    """The request's body, read once: at most MAX_BODY_BYTES however it is sent (413 past that).

    Read straight from the server's stream (werkzeug's request.get_data wraps it in a stream that
    cut a chunked body at the limit instead of refusing it, and cost a calculator a tenth of its
    time), then left in its place for anything that reads the body again."""
    environ = req.environ
    data = environ.get("digsite.body")
    if data is not None:
        return data
    # None for a chunked body, or when there is no length. Read from the environ as werkzeug's
    # request.content_length reads it, without building the request's headers to read them.
    length = get_content_length(environ)
    with _deadline():
        data = _read_whole(environ, length)
    environ["digsite.body"] = data
    environ["wsgi.input"] = io.BytesIO(data)
    return data


@contextmanager
def _deadline() -> Iterator[None]:
    """Under the served worker (gevent, whose reads wait cooperatively), a body must arrive
    whole within DIGSITE_BODY_SECONDS: a client trickling one is answered 408 and its
    connection closed (gunicorn gives the rest of it the keep-alive's 5 s, then drops it)."""
    if not is_module_patched("socket"):
        yield
        return
    seconds = service.config_of().digsite_body_seconds
    try:
        with Timeout(seconds):
            yield
    except Timeout:
        abort(408, kind=BODY_TOO_SLOW,
              message=f"The request body did not arrive whole within {seconds:g} s; send the "
                      "request again at once.")


def document(spec) -> None:
    """Every operation that reads a body may answer 408 (_deadline); a 415 may say the encodings
    a body may come in."""
    refused = spec.components.responses_lazy.get("UNSUPPORTED_MEDIA_TYPE") or \
        spec.components.responses.get("UNSUPPORTED_MEDIA_TYPE")
    if refused is not None:
        refused.setdefault("headers", {})["Accept-Encoding"] = {
            "description": "`identity`, to a body sent with a Content-Encoding: send it "
                           "unencoded",
            "schema": {"type": "string", "enum": ["identity"]}}
    for item in spec._paths.values():
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                if "408" not in operation["responses"]:
                    operation["responses"]["408"] = spec.components.get_ref(
                        "response", "REQUEST_TIMEOUT")


def _read_whole(environ: dict[str, Any], length: int | None) -> bytes:
    if length is not None and length > MAX_BODY_BYTES:
        if length <= DISCARD_BYTES:
            _discard(environ["wsgi.input"], length)
        abort(413)
    if length is not None:
        data = _read(environ["wsgi.input"], length)
    elif environ.get("wsgi.input_terminated"):  # the server ends the stream (chunked bodies)
        data = _read(environ["wsgi.input"], MAX_BODY_BYTES + 1)
        if len(data) > MAX_BODY_BYTES:
            _discard(environ["wsgi.input"], DISCARD_BYTES - len(data))
            abort(413)
    else:  # no length and an unbounded stream: no body (werkzeug's rule too)
        data = b""
    return data


def _discard(stream: Any, size: int) -> None:
    """Read and drop `size` bytes of a body refused for its length, a chunk at a time. Answered
    before its body was all sent, a proxy's client was at times given the answer's headers and
    no body (Caddy, one request in fifty): the proxy was still sending it."""
    while size > 0 and (chunk := stream.read(min(size, 65536))):
        size -= len(chunk)


def _read(stream: Any, size: int) -> bytes:
    """Up to `size` bytes of `stream`: fewer only at its end. A chunked body gunicorn cannot read
    (a chunk size that is no number, a chunk not ended by CR LF) is the client's fault: 400."""
    chunks = []
    while size > 0:
        try:
            chunk = stream.read(size)
        except ParseException:
            abort(400, message="The chunked request body could not be read: each chunk is its "
                               "size in hexadecimal and CR LF, then that many bytes and CR LF, "
                               "and the body ends with a chunk of size 0.")
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


class JsonBodyParser(FlaskParser):
    """Reads JSON bodies as the module says; refuses what the schema refuses with a 422 that
    names each field."""

    DEFAULT_VALIDATION_STATUS = 422

    def _raw_load_json(self, req):
        data = read_body(req)
        if not data.strip():
            return ma.missing
        # The usual header is taken as it is; any other is parsed (by werkzeug) to be judged.
        if req.environ.get("CONTENT_TYPE") != "application/json" and not req.is_json:
            abort(415)
        # A body gzipped (or otherwise encoded) is not read as JSON: it would be refused as
        # unreadable, or, plain JSON under a wrong header, taken as what it does not say it is.
        encoding = req.environ.get("HTTP_CONTENT_ENCODING", "").strip().lower()
        if encoding not in ("", "identity"):
            abort(415, message=NOT_ENCODED, headers={"Accept-Encoding": "identity"})
        value = read_json(data)
        if type(value) is not dict:  # every body the API takes is an object of fields
            abort(422, message=NOT_AN_OBJECT, errors={"body": [NOT_AN_OBJECT]})
        return value

    def parse(self, argmap, req=None, *, location=None, unknown=_UNKNOWN_DEFAULT_PARAM,
              validate=None, **kwargs):
        load = _LOADERS.get(argmap)
        if (load is not None and (location or self.location) == "json" and validate is None
                and unknown is _UNKNOWN_DEFAULT_PARAM and self.unknown is _UNKNOWN_DEFAULT_PARAM):
            data = self._raw_load_json(req if req is not None
                                       else flask.request._get_current_object())
            try:
                return load({} if data is ma.missing else data)
            except Exception:  # noqa: BLE001  (not vouched for: marshmallow decides below)
                pass
        return super().parse(argmap, req, location=location, unknown=unknown, validate=validate,
                             **kwargs)

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):
        errors = flatten_messages(error.normalized_messages())
        abort(error_status_code or 422, message=summarise(errors), errors=errors,
              headers=error_headers)
