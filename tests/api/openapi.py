"""Checking answers against the app's own OpenAPI 3.1 document, whose schemas are JSON Schema
2020-12: each validator resolves the document's $refs through a referencing.Registry."""

import json
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT_URI = "urn:digsite:openapi"
# Keywords whose value is a schema an instance's part must fit, or a list or a name → schema
# map of them (JSON Schema 2020-12); not those that only test it (`not`, `if`, `contains`…),
# whose `properties` say which keys must be there, not which may.
ONE_SCHEMA = ("items", "additionalProperties", "unevaluatedItems", "contentSchema")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_MAPS = ("properties", "patternProperties", "$defs")
_closed: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}


def close(schema: Any) -> None:
    """Closes, in place, every object schema of `schema` that names its properties and says
    nothing of others: `additionalProperties: false`."""
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "object" and "properties" in schema and \
            "additionalProperties" not in schema:
        schema["additionalProperties"] = False
    for key in ONE_SCHEMA:
        close(schema.get(key))
    for key in SCHEMA_LISTS:
        for part in schema.get(key, ()):
            close(part)
    for key in SCHEMA_MAPS:
        for part in schema.get(key, {}).values():
            close(part)


def closed(document: dict[str, Any]) -> dict[str, Any]:
    """The document as the tests check answers against it: every object schema closed. The
    published document leaves answers open to fields added later (API.md: fields are added
    freely, and a client validating against today's document must take tomorrow's answer);
    the server itself sends no field its document does not name, and a secret sent as an
    undocumented field fails here."""
    kept = _closed.get(id(document))
    if kept is not None and kept[0] is document:
        return kept[1]
    copy = json.loads(json.dumps(document))
    for schema in copy.get("components", {}).get("schemas", {}).values():
        close(schema)
    for operations in copy.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for answer in operation.get("responses", {}).values():
                for media in answer.get("content", {}).values():
                    close(media.get("schema"))
    _closed[id(document)] = (document, copy)
    return copy


def registry(document: dict[str, Any]) -> Registry:
    resource = Resource.from_contents(closed(document), default_specification=DRAFT202012)
    return Registry().with_resource(DOCUMENT_URI, resource)


def resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """A response or request object, following a local $ref ("#/components/responses/…")."""
    while "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def response_object(document: dict[str, Any], path: str, method: str,
                    status: int) -> dict[str, Any]:
    """The documented response for `status`, or the operation's default."""
    responses = document["paths"][path][method.lower()]["responses"]
    return resolve(document, responses.get(str(status)) or responses["default"])


def validator(document: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """Validates against `schema`, a schema object taken from `document`, both closed."""
    schema = json.loads(json.dumps(schema))
    close(schema)
    if "$ref" in schema:
        schema = {**schema, "$ref": DOCUMENT_URI + schema["$ref"]}
    return Draft202012Validator(schema, registry=registry(document))


# The headers an answer may carry that a client reads: each one sent must be declared on the
# documented response it came with (the transport's own, Content-Type and Content-Length, and
# the hints meant for browsers and proxies, such as X-Content-Type-Options, are not).
CLIENT_HEADERS = ("ETag", "Vary", "Cache-Control", "Location", "Retry-After", "X-Request-Id",
                  "Idempotent-Replayed", "RateLimit", "RateLimit-Policy", "WWW-Authenticate",
                  "Content-Disposition", "X-Content-Type-Options", "Access-Control-Allow-Origin",
                  "Access-Control-Expose-Headers", "X-Accel-Buffering", "Content-Security-Policy",
                  "Accept-Encoding")


def assert_headers_documented(document: dict[str, Any], path: str, method: str,
                              response) -> None:
    """Every header of CLIENT_HEADERS the response carries is declared on its documented
    response, and fits the schema declared for it."""
    documented = response_object(document, path, method, response.status_code)
    declared = {name.lower(): resolve(document, header)
                for name, header in documented.get("headers", {}).items()}
    sent = [name for name in CLIENT_HEADERS if name in response.headers]
    missing = [name for name in sent if name.lower() not in declared]
    assert not missing, (f"{method.upper()} {path} {response.status_code} sends {missing} "
                         f"undeclared (declared: {sorted(declared)})")
    for name in sent:
        schema = declared[name.lower()].get("schema", {})
        value: Any = response.headers[name]
        if schema.get("type") == "integer":
            value = int(value)
        errors = [e.message for e in validator(document, schema).iter_errors(value)]
        assert not errors, (name, value, errors)


def assert_documented(document: dict[str, Any], path: str, method: str, response) -> None:
    """The response's status, media type, body and headers are what the document says for
    them."""
    assert_headers_documented(document, path, method, response)
    documented = response_object(document, path, method, response.status_code)
    content = documented.get("content", {})
    assert response.mimetype in content, (response.status_code, response.mimetype, list(content))
    schema = content[response.mimetype]["schema"]
    errors = sorted(validator(document, schema).iter_errors(response.get_json(force=True)),
                    key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
