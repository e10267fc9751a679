"""/api/docs: the OpenAPI document rendered by Swagger UI 5 (it reads OpenAPI 3.1).

Swagger UI's files come from the pinned PyPI package flask-swagger-ui (its dist/ folder; we use
none of its Python), so the page works with no internet and asks no other host for anything. The
page loads nothing inline: its one script of our own, which starts Swagger UI, is a file too, so the
Content-Security-Policy allows scripts and styles from 'self' alone."""

import gzip
import hashlib
from collections.abc import Callable
from pathlib import Path

import flask_swagger_ui
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    render_template,
    request,
    send_from_directory,
)

from web import secure

HERE = Path(__file__).resolve().parent
OWN = HERE / "static"  # docs.js: the bootstrap, as a file so no inline script is needed
SWAGGER_UI = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
SWAGGER_UI_VERSION = (SWAGGER_UI / "VERSION").read_text().strip().removeprefix("v")
SERVED = (".js", ".css", ".png")

# Everything the page needs is on this origin; "Try it out" calls this API, so connect-src 'self'.
# img-src data: for the icons Swagger UI's stylesheet inlines.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'")


def _version() -> str:
    """Changes with Swagger UI's version or any file of ours, and busts cached assets then."""
    digest = hashlib.sha256(SWAGGER_UI_VERSION.encode())
    for path in sorted([*OWN.glob("docs.*"), HERE / "templates" / "docs.html"]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


VERSION = _version()

bp = Blueprint("api_docs", __name__, url_prefix="/api/docs", template_folder="templates")


@bp.after_request
def security_headers(response: Response) -> Response:
    return secure(response, CONTENT_SECURITY_POLICY)


@bp.get("")
def page() -> Response:
    config = current_app.config
    spec_url = "/".join((config["OPENAPI_URL_PREFIX"].rstrip("/"),
                         config["OPENAPI_JSON_PATH"].lstrip("/")))
    response = Response(render_template("docs.html", title=f"{config['API_TITLE']} API",
                                        spec_url=spec_url, version=VERSION))
    response.cache_control.no_cache = True
    return response


@bp.get("/assets/<filename>")
def asset(filename: str) -> Response:
    """Swagger UI's files and ours. The page links them with ?v=<VERSION>: those URLs never change
    content, so a browser keeps them a year; a URL without it is kept a day."""
    if not filename.endswith(SERVED):
        abort(404)
    folder = OWN if (OWN / filename).is_file() else SWAGGER_UI
    versioned = request.args.get("v") == VERSION
    response = send_from_directory(folder, filename, max_age=31536000 if versioned else 86400)
    response.cache_control.public = True
    response.cache_control.immutable = versioned or None
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    endpoint = "api-docs.openapi_json"  # flask-smorest's, at /api/openapi.json
    app.view_functions[endpoint] = kept_document(app.view_functions[endpoint])


def kept_document(build: Callable[[], Response]) -> Callable[[], Response]:
    """/api/openapi.json, made once: flask-smorest wrote the whole document (770 KB) again for
    every request, 24 ms of a worker's CPU, and sent it whole each time, with nothing to
    revalidate it by. It never changes while the process serves, so it is written once, sent
    gzipped to a client that takes it (a tenth of the bytes), and revalidated by its ETag."""
    kept: dict[str, object] = {}

    def document() -> Response:
        if not kept:
            body = build().get_data()
            kept.update(body=body, gzipped=gzip.compress(body, mtime=0),
                        tag=hashlib.sha256(body).hexdigest()[:20])
        tag, gzipped = str(kept["tag"]), "gzip" in request.accept_encodings
        response = Response(status=200, mimetype="application/json")
        response.vary.add("Accept-Encoding")
        response.cache_control.no_cache = True
        response.set_etag(f"{tag}-gzip" if gzipped else tag)
        if request.if_none_match.contains(response.get_etag()[0]):
            response.status_code = 304
            return response
        if gzipped:
            response.set_data(kept["gzipped"])
            response.content_encoding = "gzip"
        else:
            response.set_data(kept["body"])
        return response

    return document
