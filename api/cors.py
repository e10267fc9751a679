"""Cross-origin use (API.md "Caching and cross-origin use"): browser apps on the origins listed
in DIGSITE_CORS_ORIGINS (comma-separated, or `*`) may call the API; unset, no other origin may.
Preflights are answered; a seat token travels in the Authorization header, never in a cookie."""

from flask import Flask
from flask_cors import CORS

import service

# What a browser app may send and read beyond the basics.
ALLOW_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Last-Event-ID",
                 "Idempotency-Key", "X-Request-Id",
                 # W3C Trace Context: a traced browser app sends them on every request
                 "traceparent", "tracestate"]
EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "Idempotent-Replayed", "X-Request-Id",
                  "RateLimit", "RateLimit-Policy"]


def init_app(app: Flask) -> None:
    """The API, and its OpenAPI document (for a browser-side client generator or viewer), for
    the origins listed; the request headers allowed are ours and DIGSITE_CORS_HEADERS'."""
    config = service.config_of(app)
    origins = config.digsite_cors_origins
    if origins:
        allowed = {"origins": "*" if "*" in origins else origins}
        CORS(app, resources={r"/api/v1/*": allowed, "/api/openapi.json": allowed},
             allow_headers=[*ALLOW_HEADERS, *config.digsite_cors_headers],
             expose_headers=EXPOSE_HEADERS, max_age=600)
