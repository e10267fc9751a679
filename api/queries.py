"""Query parameters an operation does not know, or one given twice, are refused (422, naming
each), rather than ignored: a misspelt `?limt=5` or `?staus=waiting` would otherwise answer as if
it had not been sent. What each operation knows is read from the OpenAPI document, the one
place it is said.

The health probes are left be: load balancers and monitors add what they like to an address they
poll (a cache-buster, a probe's name), and a probe must not fail for it."""

import re

from flask import Flask, request

from service.errors import INVALID_BODY, Invalid

from .blueprint import PROBLEM_TYPES
from .errors import type_uri

METHODS = ("get", "put", "post", "delete", "patch")
LENIENT = ("/healthz", "/readyz")


def _path(rule: str) -> str:
    """A Flask rule as the document writes its path: /matches/<string:match_id> → {match_id}."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def document(spec) -> None:
    """Every operation may answer 422 for a query parameter it does not know: it says so (before
    api/problems.py lists each response's kinds)."""
    for path, item in spec._paths.items():
        for method, operation in item.items():
            if method in METHODS and path not in LENIENT:
                if "422" not in operation["responses"]:
                    operation["responses"]["422"] = spec.components.get_ref(
                        "response", "UNPROCESSABLE_ENTITY")
                kinds = operation.setdefault(PROBLEM_TYPES, [])
                if type_uri(INVALID_BODY) not in kinds:
                    kinds.append(type_uri(INVALID_BODY))


def init_app(app: Flask, spec) -> None:
    """Refuse, before anything else is done, the query parameters an operation of the document
    does not declare. Pages that are not operations (the phone page, the docs) are left be."""
    paths = spec.to_dict()["paths"]
    known: dict[tuple[str, str], frozenset[str]] = {}
    for rule in app.url_map.iter_rules():
        item = paths.get(_path(rule.rule))
        if item is None or rule.rule in LENIENT:
            continue
        shared = [p for p in item.get("parameters", []) if p.get("in") == "query"]
        for method in rule.methods or ():
            operation = item.get(method.lower())
            if operation is not None:
                known[rule.endpoint, method] = frozenset(
                    p["name"] for p in [*shared, *operation.get("parameters", [])]
                    if p.get("in") == "query")

    @app.before_request
    def known_query() -> None:
        if not request.args:
            return
        names = known.get((request.endpoint, request.method))
        if names is None:
            return
        unknown = [name for name in request.args if name not in names]
        if unknown:
            listed = ", ".join(f"`{name}`" for name in unknown[:5])
            accepted = ", ".join(f"`{name}`" for name in sorted(names)) or "none"
            raise Invalid(f"This operation takes no query parameter {listed}; it takes "
                          f"{accepted}.", {f"query.{name}": ["Unknown query parameter."]
                                           for name in unknown[:50]})
        # No operation takes a list: `?after=5&after=6` read the first and dropped the second.
        twice = [name for name in request.args if len(request.args.getlist(name)) > 1]
        if twice:
            raise Invalid(f"The query parameter `{twice[0]}` is given more than once: give it "
                          "once.", {f"query.{name}": ["Given more than once; give it once."]
                                    for name in twice[:50]})
