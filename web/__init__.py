"""The phone scorer page: one HTML page, plain JavaScript modules and CSS, a web app manifest and a
service worker at the site root so the page keeps working at a table with no network.

The page draws each scoresheet from GET /api/v1/games/{game} and totals it on the phone with its
own scorers (static/scoring/, the Python calculators' rules in JavaScript, proven the same on shared
test vectors: tests/web/vectors.json), then asks POST /api/v1/games/{game}/score to confirm every
total; where the two differ, the server's answer stands."""

import gzip
import hashlib
import io
import json
import re
from functools import lru_cache
from pathlib import Path

import segno
from flask import Blueprint, Flask, Response, render_template, request

from api.bodies import read_json
from api.errors import problem
from service.errors import INVALID_BODY

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
ROOT_FILES = HERE / "root"  # served at the site root: a service worker's scope is its own path
STATIC_URL = "/web"

# Only what the page itself needs; anything else is refused by the browser.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

# Text the page is made of: sent gzipped to a browser that takes it, a third of the bytes.
COMPRESSED = frozenset({"text/html", "text/css", "text/javascript", "application/javascript",
                        "application/json", "application/manifest+json", "image/svg+xml"})

# A QR code carries a link to follow a shared tally (a few dozen characters); the bound keeps the
# work of drawing one small, whatever is asked.
QR_TEXT_MAX = 512
QR_CACHE_SECONDS = 86400

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
               static_url_path=STATIC_URL)


def _shell() -> list[str]:
    """Every URL the page needs to open with no network: the page, its files, the manifest."""
    files = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file())
    return ["/", "/manifest.webmanifest", *(f"{STATIC_URL}/{name}" for name in files)]


def _version() -> str:
    """Changes whenever a file of the page changes, so phones drop the old cached shell."""
    digest = hashlib.sha256()
    for folder in (STATIC, ROOT_FILES, HERE / "templates"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(HERE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


SHELL = _shell()
VERSION = _version()


def secure(response: Response, policy: str) -> Response:
    """A page's security headers: its content security policy, no sniffing, no referrer."""
    response.headers.setdefault("Content-Security-Policy", policy)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


@bp.after_request
def security_headers(response: Response) -> Response:
    return secure(response, CONTENT_SECURITY_POLICY)


@bp.after_request
def compress(response: Response) -> Response:
    response.vary.add("Accept-Encoding")
    if (response.status_code != 200 or response.mimetype not in COMPRESSED
            or response.content_encoding or "gzip" not in request.accept_encodings):
        return response
    response.direct_passthrough = False  # a static file is read to be compressed
    response.set_data(gzip.compress(response.get_data(), mtime=0))
    response.content_encoding = "gzip"
    etag, weak = response.get_etag()
    if etag:  # the same file gzipped is another representation of it, revalidated as such
        response.set_etag(f"{etag}-gzip", weak)
        response.make_conditional(request)
    return response


# A script's lines that are comments alone: a line comment, and a doc comment (`/** … */`) that
# begins a line and ends one. The page's scripts explain themselves at length, and a phone on a
# slow network need not fetch that: they are sent as empty lines (an error still names the line
# of the source). tests/web/test_page_files.py checks that no script of the page reads otherwise
# without them (TypeScript prints each, without comments, the same as sent and as written).
COMMENT_LINE = re.compile(rb"^[ \t]*//[^\n]*$", re.M)
DOC_COMMENT = re.compile(rb"^[ \t]*/\*\*(?:(?!\*/).)*\*/[ \t]*$", re.M | re.S)
SCRIPTS = frozenset({"text/javascript", "application/javascript"})


@lru_cache(maxsize=256)
def without_comments(script: bytes) -> bytes:
    """`script` with its comment lines left empty."""
    blank = DOC_COMMENT.sub(lambda found: b"\n" * found[0].count(b"\n"), script)
    return COMMENT_LINE.sub(b"", blank)


@bp.after_request  # after_request functions run last registered first: before compress
def lean(response: Response) -> Response:
    if (response.status_code == 200 and response.mimetype in SCRIPTS
            and not response.content_encoding):
        response.direct_passthrough = False  # a static file is read to be changed
        response.set_data(without_comments(response.get_data()))
    return response


@bp.get("/")
def index() -> Response:
    response = Response(render_template("index.html", static=STATIC_URL, version=VERSION))
    response.cache_control.no_cache = True
    return response


@bp.get("/follow/<string:tally_id>")
def follow(tally_id: str) -> Response:
    """A shared tally followed live, read-only: the same page, which reads the id from its
    address (README "A live shared tally"), so a link or a QR code opens it on any phone."""
    return index()


@bp.get("/play")
@bp.get("/play/<string:match_id>")
@bp.get("/play/<string:match_id>/replay")
def play(match_id: str | None = None) -> Response:
    """Playing a match with friends and bots, built on /api/v1 alone: the setup and lobby at
    /play, a match at /play/{id} (a seat's link adds ?seat=N), its replay at /play/{id}/replay.
    One page, which reads where it is from its address."""
    response = Response(render_template("play.html", static=STATIC_URL, version=VERSION))
    response.cache_control.no_cache = True
    return response


@bp.route("/qr.svg", methods=["GET", "POST"])
def qr_code() -> Response:
    """`text` as a QR code in SVG, dark on light whatever the page's colours: sent as ?text=, or
    POSTed as {"text": …} when it holds a secret (a seat's new link, its token): a URL's query
    is written into access logs and kept by caches, a body is not, and that answer is stored by
    no cache."""
    secret = request.method == "POST"
    # read as the API reads a body: one too deep for Python's JSON reader is a 400, not a crash
    body = read_json(request.get_data()) if secret and request.is_json else None
    text = body.get("text") if isinstance(body, dict) else request.args.get("text", "")
    if not isinstance(text, str) or not text or len(text) > QR_TEXT_MAX:
        where = 'as {"text": …} in a JSON body' if secret else "as ?text="
        message = f"Send the text to encode {where}, 1 to {QR_TEXT_MAX} characters."
        return problem(INVALID_BODY, message, errors={"text": [message]})
    svg = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        svg, kind="svg", border=4, dark="#000", light="#fff", xmldecl=False, omitsize=True)
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    if secret:
        response.cache_control.no_store = True
    else:
        response.cache_control.public = True
        response.cache_control.max_age = QR_CACHE_SECONDS
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = Response((ROOT_FILES / "manifest.webmanifest").read_bytes(),
                        mimetype="application/manifest+json")
    response.cache_control.no_cache = True
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    source = (ROOT_FILES / "sw.js").read_text()
    source = source.replace('"%VERSION%"', json.dumps(VERSION))
    source = source.replace('["%SHELL%"]', json.dumps(SHELL))
    response = Response(source, mimetype="text/javascript")
    # A browser checks for a new service worker on every visit; never serve it from a cache.
    response.cache_control.no_cache = True
    response.cache_control.max_age = 0
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
