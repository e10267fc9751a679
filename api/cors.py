"""Cross-origin use (API.md "Caching and cross-origin use"): browser apps on the origins listed
in DIGSITE_CORS_ORIGINS (comma-separated, or `*`) may call the API; unset, no other origin may.
Preflights are answered; a seat token travels in the Authorization header, never in a cookie."""

from flask import Flask
from flask_cors import CORS

import service

# What a browser app may send and read beyond the basics.
ALLOW_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Last-Event-ID",
                 "Idempotency-Key", "X-Request-Id"]
EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "Idempotent-Replayed", "X-Request-Id",
                  "RateLimit", "RateLimit-Policy"]


def init_app(app: Flask) -> None:
    origins = service.settings(app).digsite_cors_origins
    if origins:
        CORS(app, resources={r"/api/v1/*": {"origins": "*" if "*" in origins else origins}},
             allow_headers=ALLOW_HEADERS, expose_headers=EXPOSE_HEADERS, max_age=600)
