"""Cross-origin use (API.md "Caching and cross-origin use"): browser apps on the origins listed
in DIGSITE_CORS_ORIGINS (comma-separated, or `*`) may call the API; unset, no other origin may.
Preflights are answered; a seat token travels in the Authorization header, never in a cookie."""

import re

from flask import Flask, Response, request
from flask_cors import CORS

import service

# What a browser app may send and read beyond the basics.
ALLOW_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Last-Event-ID",
                 "Idempotency-Key", "X-Request-Id",
                 # W3C Trace Context: a traced browser app sends them on every request
                 "traceparent", "tracestate"]
EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "Idempotent-Replayed", "X-Request-Id",
                  "RateLimit", "RateLimit-Policy"]
# Every method some route of the API takes: a preflight names at most these, and of them only
# those its own address takes (its Allow).
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]
# The addresses open to other origins: the API, its OpenAPI document (for a browser-side client
# generator or viewer), the problem kinds an error's `type` names (the document tells a client to
# read them) and health (a status page); each operation documents the headers (api/contract.py).
RESOURCES = [r"/api/v1/*", r"/api/openapi\.json$", r"/problems(/[^/]*)?$", "/healthz$",
             "/readyz$"]
_OPEN = re.compile(r"/api/v1(/.*)?|/api/openapi\.json|/problems(/[^/]*)?|/healthz|/readyz")
ALLOW_METHODS = "Access-Control-Allow-Methods"


def init_app(app: Flask) -> None:
    """The API and its document for the origins listed; the request headers allowed are ours
    and DIGSITE_CORS_HEADERS'."""
    config = service.config_of(app)
    origins = config.digsite_cors_origins
    if origins:
        # Registered before flask-cors's own, so run after it, on every answer (errors too).
        app.after_request(origin_dependent)
        # Each origin as itself: flask-cors reads a string with brackets as a regular expression
        # (an IPv6 origin's "[::1]" would be one character).
        allowed = {"origins": "*" if "*" in origins else
                   [re.compile(re.escape(origin) + r"\Z", re.IGNORECASE) for origin in origins]}
        # No Access-Control-Allow-Origin for a request that names no origin (always_send), and
        # Vary set here whatever the number of origins listed (vary_header).
        CORS(app, resources={resource: allowed for resource in RESOURCES},
             allow_headers=[*ALLOW_HEADERS, *config.digsite_cors_headers],
             expose_headers=EXPOSE_HEADERS, methods=METHODS, max_age=600, always_send=False,
             vary_header=False)


def origin_dependent(response: Response) -> Response:
    """An answer of an address open to other origins depends on the request's Origin (whether
    it carries Access-Control-Allow-Origin, and which): it says so in Vary, beside what it
    varies on already (Authorization, for a view), so that no shared cache serves one origin's
    answer to another. A preflight advertises the methods of its own address only."""
    if not _OPEN.fullmatch(request.path):
        return response
    response.vary.add("Origin")
    if ALLOW_METHODS in response.headers and response.allow:
        response.headers[ALLOW_METHODS] = ", ".join(
            method for method in METHODS if method in response.allow)
    return response
