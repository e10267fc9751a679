"""HTTP only, and thin: flask-smorest blueprints, marshmallow schemas, problem+json errors."""

import flask_smorest
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask import Flask
from werkzeug.routing import IntegerConverter

import service
from scoring.games import GAMES

from . import (
    bodies,
    contract,
    cors,
    docs,
    errors,
    games,
    headers,
    health,
    idempotency,
    limits,
    match_log,
    matches,
    problems,
    queries,
    replay,
    requests,
    simulations,
    studies,
    tallies,
)
from .schemas.common import property_names, table_name
from .schemas.matches import document_actions, event_reference
from .schemas.views import document_views

_NAMES = [f"**{game.name}**" for game in GAMES.values()]
API_DESCRIPTION = f"""\
Scoring companion and turn engine for {", ".join(_NAMES[:-1])} and {_NAMES[-1]}.

* End-game calculators: post what each player collected, get totals, a breakdown, ranks and
  winners with the printed tie-breaks.
* Matches: open one, act with each seat's secret token, see only what that seat may know.
* Every error is `application/problem+json` (RFC 9457); invalid input answers 422 with `errors`,
  field path → messages. Its `type`, `/problems/<slug>`, names its kind for good (the wording
  may change, the type never does): `GET` it for the kind's description, `GET /problems` for
  them all. Each operation lists the kinds it may answer in `x-problem-types`; the kinds any
  request may meet before it is read, or from an internal error, are its `default` response's.
"""


class Api(flask_smorest.Api):
    """flask-smorest's Api, documenting every error response as problem+json."""

    ERROR_SCHEMA = errors.ProblemSchema

    def _register_responses(self):
        super()._register_responses()
        for response in self.spec.components.responses_lazy.values():
            if "content" in response:
                response["content"] = {errors.PROBLEM_JSON: response["content"][
                    self.DEFAULT_RESPONSE_CONTENT_TYPE]}

    def _register_error_handlers(self):
        """Our problem+json handlers are registered by errors.init_app instead."""


# A game's schema module -> the prefix of its component names.
PREFIXES = {game.package: game.prefix for game in GAMES.values()}


class Plugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, which also says what a request schema asks of its fields
    together, checked by the schema's own validates_schema: `one_of`, groups of fields of which
    exactly one is sent, and `sent_with`, a field sent only beside others (dependentRequired)."""

    def schema_helper(self, name, _, schema=None, **kwargs):
        described = super().schema_helper(name, _, schema=schema, **kwargs)
        cls = None if schema is None else resolve_schema_cls(schema)
        if described is not None and isinstance(cls, type):
            if getattr(cls, "one_of", None):
                # "Not two groups, nor none": a `not`, which the client generators leave be
                # (a oneOf would make them turn the one object into a union of several).
                def sent(names: list[str]) -> dict:
                    return {"properties": {name: {} for name in names}, "required": names}

                groups = [list(group) for group in cls.one_of]
                described["not"] = {"anyOf": [
                    *(sent(a + b) for i, a in enumerate(groups) for b in groups[i + 1:]),
                    {"not": {"anyOf": [sent(group) for group in groups]}}]}
            if getattr(cls, "sent_with", None):
                described["dependentRequired"] = {k: list(v) for k, v in cls.sent_with.items()}
        return described


class Digits(IntegerConverter):
    """`<int:…>` in an address: the digits 0–9 alone. Werkzeug's reads `\\d`, which takes any
    script's digits (/views/٣ would be version 3); a number written so matches no address."""

    regex = r"[0-9]+"


def schema_name(schema) -> str:
    """Component names in one pattern: <Game><Thing> for a game's own schemas (its ScoreRequest,
    Player, Result…), <Thing> for shared ones (View, Problem)."""
    cls = schema if isinstance(schema, type) else type(schema)
    name = cls.__name__.removesuffix("Schema")
    prefix = PREFIXES.get(cls.__module__.rsplit(".", 1)[-1], "")
    owned = name.startswith(prefix) and name[len(prefix):][:1].isupper()
    return name if not prefix or owned else prefix + name


def init_app(app: Flask) -> None:
    app.url_map.converters["int"] = Digits
    app.config.setdefault("API_TITLE", "Digsite")
    app.config.setdefault("API_VERSION", "1")
    app.config.setdefault("OPENAPI_VERSION", "3.1.0")
    app.config.setdefault("OPENAPI_URL_PREFIX", "/api")
    app.config.setdefault("OPENAPI_JSON_PATH", "openapi.json")
    app.config.setdefault("API_SPEC_OPTIONS", {"info": {"description": API_DESCRIPTION},
                                               "servers": contract.SERVERS})
    plugin = Plugin(schema_name_resolver=schema_name)
    api = Api(app, spec_kwargs={"marshmallow_plugin": plugin})
    plugin.converter.add_attribute_function(event_reference)
    plugin.converter.add_attribute_function(property_names)
    api.spec.components.security_scheme("seatToken", {
        "type": "http", "scheme": "bearer",
        "description": "A secret token, as each operation says: a seat's (from the answer "
                       "that created or joined the match, or claimed its rematch), a match's "
                       "host's (`host_token`, from the answer that created it), a study's "
                       "creator's (`token`, from the answer that started it), or a shared "
                       "tally's writer's (`token`, from the answer that shared it)"})
    for game in GAMES.values():
        document_actions(api.spec, game)
    document_views(api.spec)
    # First registered, so run last: whatever built an answer, one with no body claims no type.
    app.after_request(headers.bodiless)
    errors.init_app(app)
    requests.init_app(app)
    idempotency.init_app(app)
    limits.init_app(app)
    service.init_app(app, table_name)
    if not app.extensions["digsite_storage"].newest:  # started while the database was away
        errors.schema_pending(app)
    for module in (health, games, matches, replay, simulations, studies, tallies, problems):
        api.register_blueprint(module.blp)
    match_log.document_stream(api.spec)
    errors.document_unavailable(api.spec)
    errors.document_unauthorized(api.spec)
    idempotency.document(api.spec)
    limits.document_operations(api.spec)
    bodies.document(api.spec)
    queries.document(api.spec)
    problems.document(api.spec)
    contract.finish(api.spec)
    queries.init_app(app, api.spec)
    app.extensions["digsite_api"] = api

    # /api/docs: Swagger UI 5 from a pinned PyPI package, no CDN, under a strict CSP.
    docs.init_app(app)
    cors.init_app(app)
