"""Digsite: the app factory. Served as gunicorn 'app:create_app()'."""

from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

import api
import cli
import service
import web


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=False)
    app.config.from_mapping(JSON_SORT_KEYS=False)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    if config:
        app.config.update(config)
    service.configure(app)
    api.init_app(app)
    web.init_app(app)
    cli.init_app(app)
    trust_proxies(app)
    return app


def trust_proxies(app: Flask) -> None:
    """Believe X-Forwarded-For and X-Forwarded-Proto from as many proxies as
    DIGSITE_TRUSTED_PROXIES counts (default 0: none), each taken from the right by that many
    hops, so the client's address (what rate limits key on) cannot be set by the client itself.

    Each client's requests under way on a worker are counted by that address then (api/limits.py
    UnderWay), as serving.py counts each address's connections without a proxy.

    X-Forwarded-Host, -Port and -Prefix stay untrusted: both proxies in deploy/ pass the Host
    header through as the client sent it and serve the app at the root."""
    config = service.config_of(app)
    hops = config.digsite_trusted_proxies
    if hops:
        share = config.digsite_connections_per_address
        counted = api.limits.UnderWay(app.wsgi_app, share) if share else app.wsgi_app
        app.wsgi_app = ProxyFix(counted, x_for=hops, x_proto=hops, x_host=0, x_port=0,
                                x_prefix=0)
