"""The project's flask-smorest Blueprint: it reads JSON bodies with our parser, and documents the
kinds of problem each view may answer."""

import inspect
from http import HTTPStatus

import flask_smorest

from service.errors import Kind

from .bodies import JsonBodyParser
from .errors import type_uri

# An operation's extension listing the `type` of every problem it may answer (api/problems.py).
PROBLEM_TYPES = "x-problem-types"


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonBodyParser()

    def alt_response(self, status_code, *args, **kwargs):
        """flask-smorest's, without a wrapper of its own around the view: it only adds to the
        document, and each wrapper costs every request a call (a calculator has several)."""
        document = super().alt_response(status_code, *args, **kwargs)

        def decorator(func):
            if inspect.iscoroutinefunction(func):
                return document(func)
            func._apidoc = document(func)._apidoc
            return func
        return decorator

    def refuses(self, *kinds: Kind):
        """Documents the kinds of problem a view may answer: its status's shared response for
        each, and the kinds themselves (api/problems.py lists them in each response)."""
        def decorator(func):
            for status in sorted({kind.status for kind in kinds}):
                func = self.alt_response(status, response=HTTPStatus(status).name)(func)
            manual = func._apidoc.setdefault("manual_doc", {})
            manual[PROBLEM_TYPES] = [*manual.get(PROBLEM_TYPES, []), *map(type_uri, kinds)]
            return func
        return decorator
