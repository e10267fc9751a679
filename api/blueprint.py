"""The project's flask-smorest Blueprint: it reads JSON bodies with our parser."""

import flask_smorest

from .errors import JsonBodyParser


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonBodyParser()
