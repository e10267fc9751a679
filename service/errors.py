"""What the match service refuses, in words a player understands. Each kind carries the HTTP
status the door answers it with, so the views translate without knowing the rules."""

from __future__ import annotations


class Refused(Exception):
    """A request the match service will not carry out; nothing was changed."""
    status = 422

    def __init__(self, message: str, errors: dict[str, list[str]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors


class Unauthorized(Refused):
    status = 401


class Forbidden(Refused):
    status = 403


class NotFound(Refused):
    status = 404


class Conflict(Refused):
    status = 409


class Gone(Refused):
    status = 410


class Invalid(Refused):
    status = 422
