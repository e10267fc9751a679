"""Digsite: the app factory. Served as gunicorn 'app:create_app()'."""

import os
from typing import Any

from flask import Flask

import api
import cli
import web


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=False)
    app.config.from_mapping(
        JSON_SORT_KEYS=False,
        DATABASE_URL=os.environ.get("DATABASE_URL"),
    )
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    if config:
        app.config.update(config)
    api.init_app(app)
    web.init_app(app)
    cli.init_app(app)
    return app
