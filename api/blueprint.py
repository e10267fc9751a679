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
