"""The last touches of the OpenAPI document, once every blueprint is in it: what Redocly's linter
(run by the tests with redocly.yaml) and generated clients expect of a document with a security
scheme, and nothing the document does not use."""

import json
import re

from apispec import APISpec

from . import cors, requests

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
                                "seat's view and `no-cache` for a shared tally (ask again "
                                "with its ETag), `private, "
                                "max-age=86400` for a past version of a match, `public, "
                                "max-age=86400` for what does not change; none, the client's "
                                "own rules",
                 "schema": {"type": "string", "example": "no-store"}}


# What every answer carries (api/requests.py), and what every answer of the API carries where
# other origins may call it (api/cors.py, API.md "Caching and cross-origin use").
EVERY_ANSWER = {
    "X-Content-Type-Options": {"description": "`nosniff`: the answer is read as the type it "
                                              "says, never sniffed into another",
                               "schema": {"type": "string", "enum": ["nosniff"]}},
    "Access-Control-Allow-Origin": {"description": "To a request naming an origin the server "
                                                   "allows (DIGSITE_CORS_ORIGINS): that origin, "
                                                   "or `*` where any may call; else absent",
                                    "schema": {"type": "string",
                                               "example": "https://app.example"}},
    "Access-Control-Expose-Headers": {"description": "With Access-Control-Allow-Origin: the "
                                                     "headers a browser app may read",
                                      "schema": {"type": "string",
                                                 "example": ", ".join(cors.EXPOSE_HEADERS)}},
}
VARY = {"description": "`Origin` where other origins may call the API (DIGSITE_CORS_ORIGINS): "
                       "the answer depends on the request's Origin",
        "schema": {"type": "string", "example": "Origin"}}


def finish(spec: APISpec) -> None:
    """Every operation says whether it needs a token: those that say nothing need none
    (`security: []`), so a client generator does not send the token to them; every answer
    carries its request id (api/requests.py) and `X-Content-Type-Options`, and may carry
    Cache-Control, the cross-origin headers and Vary; and the components nothing refers to
    (flask-smorest's defaults our problem kinds replaced) go."""
    spec.components.header("RequestId", requests.DOCUMENTED)
    spec.components.header("CacheControl", CACHE_CONTROL)
    every = {requests.HEADER: {"$ref": "#/components/headers/RequestId"}}
    cache = {"$ref": "#/components/headers/CacheControl"}
    for name, header in EVERY_ANSWER.items():
        component = name.replace("-", "")
        spec.components.header(component, header)
        every[name] = {"$ref": f"#/components/headers/{component}"}
    spec.components.header("Vary", VARY)
    vary = {"$ref": "#/components/headers/Vary"}

    def carried(response: dict) -> None:
        headers = response.setdefault("headers", {})
        headers.update(every)
        # an operation's own says what it sends (a shared tally's), where it says it
        headers.setdefault("Cache-Control", cache)
        headers.setdefault("Vary", vary)  # a view's own says what else it varies on

    for item in spec._paths.values():
        for method, operation in item.items():
            if method in METHODS:
                operation.setdefault("security", [])
                for response in operation["responses"].values():
                    if "$ref" not in response:
                        carried(response)
    for shared in (spec.components.responses, spec.components.responses_lazy):
        for response in shared.values():
            carried(response)
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
