"""The project's flask-smorest Blueprint: it reads JSON bodies with our parser."""

import inspect

import flask_smorest

from .bodies import JsonBodyParser


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

    # The problems a view may answer, by status, as the document's shared responses name them.
    PROBLEMS = {400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND",
                409: "CONFLICT", 410: "GONE", 413: "REQUEST_ENTITY_TOO_LARGE",
                415: "UNSUPPORTED_MEDIA_TYPE", 429: "TOO_MANY_REQUESTS"}

    def refuses(self, *statuses: int):
        """Documents the problem+json answers a view may give, one per status."""
        def decorator(func):
            for status in statuses:
                func = self.alt_response(status, response=self.PROBLEMS[status])(func)
            return func
        return decorator
