"""The last touches of the OpenAPI document, once every blueprint is in it: what Redocly's linter
(run by the tests with redocly.yaml) and generated clients expect of a document with a security
scheme, and nothing the document does not use."""

import json
import re

from apispec import APISpec

from . import requests

# Where the API is served: the document's own host, whichever it is (a relative URL is resolved
# against the address the document was read from).
SERVERS = [{"url": "/", "description": "The server this document was read from"}]
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Components of each kind, as a `$ref` names them, and where apispec keeps them.
SUBSECTIONS = {"schemas": "schemas", "responses": "responses", "parameters": "parameters",
               "headers": "headers", "examples": "examples"}
REF = re.compile(r'"#/components/(\w+)/([^"]+)"')
CACHE_CONTROL = {"description": "Whether and how long a cache may keep this answer: `no-store` "
                                "for one holding a token or a stream, `private, no-cache` for a "
                                "seat's view (ask again with its ETag), `private, "
                                "max-age=86400` for a past version of a match, `public, "
                                "max-age=86400` for what does not change; none, the client's "
                                "own rules",
                 "schema": {"type": "string", "example": "no-store"}}


def finish(spec: APISpec) -> None:
    """Every operation says whether it needs a token: those that say nothing need none
    (`security: []`), so a client generator does not send the token to them; every answer
    carries its request id (api/requests.py) and may carry Cache-Control; and the components
    nothing refers to (flask-smorest's defaults our problem kinds replaced) go."""
    spec.components.header("RequestId", requests.DOCUMENTED)
    spec.components.header("CacheControl", CACHE_CONTROL)
    request_id = {requests.HEADER: {"$ref": "#/components/headers/RequestId"},
                  "Cache-Control": {"$ref": "#/components/headers/CacheControl"}}
    for item in spec._paths.values():
        for method, operation in item.items():
            if method in METHODS:
                operation.setdefault("security", [])
                for response in operation["responses"].values():
                    if "$ref" not in response:
                        response.setdefault("headers", {}).update(request_id)
    for shared in (spec.components.responses, spec.components.responses_lazy):
        for response in shared.values():
            response.setdefault("headers", {}).update(request_id)
    _drop_unused(spec)


def _drop_unused(spec: APISpec) -> None:
    """Remove components that no `$ref` of the document names, until none is left (a schema
    may be used only by another unused one)."""
    while True:
        named = set(REF.findall(json.dumps(spec.to_dict())))
        unused = [(kind, name)
                  for kind, attribute in SUBSECTIONS.items()
                  for lazy in (False, True)
                  for name in getattr(spec.components, attribute + ("_lazy" if lazy else ""))
                  if (kind, name) not in named]
        if not unused:
            return
        for kind, name in unused:
            for attribute in (SUBSECTIONS[kind], SUBSECTIONS[kind] + "_lazy"):
                getattr(spec.components, attribute).pop(name, None)
