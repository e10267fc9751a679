"""The project's flask-smorest Blueprint: it reads JSON bodies with our parser, and documents the
kinds of problem each view may answer."""

import functools
import inspect
from collections.abc import Callable
from http import HTTPStatus

import flask_smorest
from werkzeug.exceptions import HTTPException

from service.errors import Invalid, Kind

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


def judged_first(check: Callable[..., None]) -> Callable[[Callable], Callable]:
    """A view whose address and token are judged before its body, as a client expects (401, 403,
    404, 410 before 400, 413, 415 and 422): where the body is refused (by its schema, as
    malformed JSON, too large, not said to be JSON, or by the view itself), `check`, given the
    address's arguments, is asked first and refuses
    instead where the address or the token is at fault. A token replaced by the host would
    otherwise be told what its body lacks, and fail again with the body put right. Only a
    refusal pays for the check. Put it above the view's flask-smorest decorators."""
    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def judged(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except HTTPException as refused:
                if refused.code not in (400, 413, 415, 422):
                    raise
                check(**kwargs)
                raise
            except Invalid:
                check(**kwargs)
                raise
        return judged
    return decorator
