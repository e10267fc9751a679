"""The kinds of problem (service/errors.py) as pages: a problem's `type`, `/problems/<slug>`,
leads to its kind's description (RFC 9457: the type URI should resolve to documentation for
people), and `/problems` lists them all. The OpenAPI document says which kinds each operation may
answer: in its `x-problem-types`, and in each of its error responses, an example of each."""

from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask.views import MethodView

from service.errors import (
    CONNECTION_NOT_ALLOWED,
    EXPECTATION_FAILED,
    HEADERS_TOO_LARGE,
    INTERNAL_ERROR,
    INVALID_BODY,
    KINDS,
    MALFORMED_REQUEST,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    RANGE_NOT_SATISFIABLE,
    REQUEST_LINE_TOO_LONG,
    TRANSFER_CODING_UNSUPPORTED,
    Kind,
    NotFound,
)

from .blueprint import PROBLEM_TYPES, Blueprint
from .errors import PROBLEM_JSON, TYPE_NAMES, TYPE_PREFIX, TYPES, type_uri
from .schemas.common import Sent

blp = Blueprint("problems", __name__, url_prefix=TYPE_PREFIX.rstrip("/"),
                description="The kinds of problem an error's `type` names")

# Descriptions may be reworded when the server is, so a client keeps them a day.
CACHED = {"Cache-Control": "public, max-age=86400"}
METHODS = ("get", "put", "post", "delete", "patch")
# The statuses that more than one kind answers: a response of one of them lists its kinds.
SHARED = {status for status in {kind.status for kind in KINDS.values()}
          if sum(kind.status == status for kind in KINDS.values()) > 1}


class ProblemKindSchema(Sent):
    type = ma.fields.String(required=True, metadata={
        "enum": TYPES, **TYPE_NAMES, "description": "The `type` of every problem of this kind"})
    title = ma.fields.String(required=True, metadata={"example": "The match moved on"})
    status = ma.fields.Integer(required=True, metadata={
        "description": "The HTTP status every problem of this kind is answered with",
        "example": 409})
    description = ma.fields.String(required=True, metadata={
        "description": "What the kind means and what a client can do about it"})


class ProblemKindsSchema(Sent):
    problems = ma.fields.List(ma.fields.Nested(ProblemKindSchema), required=True)


def shown(kind: Kind) -> dict[str, Any]:
    return {"type": type_uri(kind), "title": kind.title, "status": kind.status,
            "description": kind.description}


@blp.route("")
class ProblemTypes(MethodView):
    @blp.doc(operationId="listProblemTypes")
    @blp.response(200, ProblemKindsSchema)
    def get(self):
        """Every kind of problem"""
        return {"problems": [shown(kind) for kind in KINDS.values()]}, CACHED


@blp.route("/<string:slug>", parameters=[{
    "in": "path", "name": "slug", "description": "The last part of a problem's `type`",
    "schema": {"type": "string", "enum": list(KINDS)}}])
class ProblemType(MethodView):
    @blp.doc(operationId="getProblemType")
    @blp.refuses(NOT_FOUND)
    @blp.response(200, ProblemKindSchema)
    def get(self, slug):
        """What a kind of problem means

        The page a problem's `type` leads to."""
        kind = KINDS.get(slug)
        if kind is None:
            raise NotFound(f"There is no problem type '{slug}'; /problems lists them all.")
        return shown(kind), CACHED


# What may answer any request, whatever its operation lists: the HTTP layer (serving.py) before
# the app reads the request, a method or a range the address does not serve, and a failure of
# the server's own.
ANYWHERE = (MALFORMED_REQUEST, REQUEST_LINE_TOO_LONG, HEADERS_TOO_LARGE, EXPECTATION_FAILED,
            TRANSFER_CODING_UNSUPPORTED, CONNECTION_NOT_ALLOWED, METHOD_NOT_ALLOWED,
            RANGE_NOT_SATISFIABLE, INTERNAL_ERROR)


def example(kind: Kind) -> dict[str, Any]:
    return {"summary": kind.title, "value": {
        "type": type_uri(kind), "title": HTTPStatus(kind.status).phrase, "status": kind.status,
        "detail": f"{kind.title}."}}


def document(spec) -> None:
    """Every operation lists the kinds of problem it may answer (`x-problem-types`): those its
    view declares (Blueprint.refuses, api/idempotency.py), the one kind of a status that has one,
    and invalid-body where it reads a body or a query. Each error response whose status several
    kinds share lists the operation's, with an example of each; each other status's shared
    response shows its one kind's example."""
    components = spec.components
    for item in spec._paths.values():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            declared = [KINDS[uri.removeprefix(TYPE_PREFIX)]
                        for uri in operation.get(PROBLEM_TYPES, [])]
            reads = "requestBody" in operation or any(
                parameter.get("in") == "query" for parameter in operation.get("parameters", []))
            answered: list[Kind] = []
            for status, response in operation["responses"].items():
                if status == "default" or int(status) < 400:
                    continue
                kinds = [kind for kind in declared if kind.status == int(status)]
                if int(status) not in SHARED:
                    kinds = [kind for kind in KINDS.values() if kind.status == int(status)]
                elif int(status) == INVALID_BODY.status and reads:
                    kinds.insert(0, INVALID_BODY)
                kinds = list(dict.fromkeys(kinds))
                answered += kinds
                if int(status) in SHARED and kinds:
                    operation["responses"][status] = listing(components, response, kinds)
            operation[PROBLEM_TYPES] = [type_uri(kind) for kind in dict.fromkeys(answered)]
    anywhere = shared(components, "DEFAULT_ERROR")
    if anywhere is not None:
        anywhere["description"] = (
            "Besides the kinds its operation lists, any request may be answered with these: "
            "the server's HTTP layer's, before the request is read (its connection then "
            "closes), a method or a byte range the address does not serve, and an internal "
            "error: " + "; ".join(f"`{type_uri(kind)}` ({kind.status}, {kind.title})"
                                              for kind in ANYWHERE))
        anywhere["content"][PROBLEM_JSON]["examples"] = {kind.slug: example(kind)
                                                         for kind in ANYWHERE}
    for kind in KINDS.values():
        if kind.status not in SHARED:
            response = shared(components, HTTPStatus(kind.status).name)
            if response is not None:
                response["content"][PROBLEM_JSON]["examples"] = {kind.slug: example(kind)}


def shared(components, name: str) -> dict[str, Any] | None:
    """A shared response of the document (components/responses), lazily registered or not."""
    return components.responses_lazy.get(name) or components.responses.get(name)


def listing(components, response: dict[str, Any], kinds: list[Kind]) -> dict[str, Any]:
    """The operation's own copy of a shared error response, naming the kinds it may answer."""
    base = shared(components, response["$ref"].rsplit("/", 1)[-1]) if "$ref" in response \
        else response
    media = base["content"][PROBLEM_JSON]
    return {**base,
            "description": f"{base['description']}: "
                           + "; ".join(f"`{type_uri(kind)}` ({kind.title})"
                                       for kind in kinds),
            "content": {PROBLEM_JSON: {"schema": media["schema"],
                                       "examples": {kind.slug: example(kind)
                                                    for kind in kinds}}}}
