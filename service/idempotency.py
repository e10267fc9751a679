"""Idempotency keys (API.md "Retries, errors, seeds as text"): a POST sent again with the same
`Idempotency-Key` and the same body by the same caller within KEEP_HOURS gets its first answer
again, whatever it was, so a client whose connection dropped can retry without acting twice.

A key is stored under a hash of the caller and the key, never as sent, and its answer (which may
hold seat tokens) encrypted with AES-GCM under a key derived from the caller and the key: the
database alone reveals no answer. While the first request runs, the key is held; a second one
with it is told to retry, and a holder that died is replaced after HELD_SECONDS."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy.exc import IntegrityError

from .store import aware, metadata

KEEP_HOURS = 24
HELD_SECONDS = 60  # a request still holding its key after this long has died

keys = sa.Table(
    "idempotency_keys", metadata,
    sa.Column("scope", sa.String(64), primary_key=True),  # hash of the caller and the key
    sa.Column("request_hash", sa.String(64), nullable=False),  # hash of what was asked
    sa.Column("answer", sa.LargeBinary),  # nonce + AES-GCM of the answer; NULL while held
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_idempotency_keys_created_at", "created_at"),
)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass
class Claim:
    """The key of a request being answered for the first time."""
    scope: str
    secret: bytes


class Held(Exception):
    """The first request with this key is still being answered."""


class Reused(Exception):
    """The key was used with another request."""


def _digest(*parts: bytes) -> bytes:
    return hashlib.sha256(b"\0".join(parts)).digest()


class IdempotencyKeys:
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        # Claims whose release failed with the database (a request that died with it): tried
        # again before this worker's next claim, where they held their key for HELD_SECONDS
        # and every retry of its request was told the request was still being answered.
        self.unreleased: list[Claim] = []

    def claim(self, caller: str, key: str, request: bytes) -> Claim | Answer:
        """The first answer to this caller's key, or a Claim to answer it now; Reused when the
        key came with another request, Held while its first request is still being answered."""
        self._release_pending()
        scope = _digest(b"scope", caller.encode(), key.encode()).hex()
        secret = _digest(b"secret", caller.encode(), key.encode())
        asked = hashlib.sha256(request).hexdigest()
        now = datetime.now(UTC)
        for _ in range(3):
            try:
                with self.engine.begin() as conn:
                    conn.execute(keys.insert().values(scope=scope, request_hash=asked,
                                                      created_at=now))
                return Claim(scope, secret)
            except IntegrityError:
                pass
            with self.engine.begin() as conn:
                row = conn.execute(sa.select(keys).where(keys.c.scope == scope)).first()
                if row is None:
                    continue  # gone meanwhile: claim it again
                age = now - aware(row.created_at)
                stale = age > timedelta(hours=KEEP_HOURS) or (
                    row.answer is None and age > timedelta(seconds=HELD_SECONDS))
                if stale:
                    conn.execute(keys.delete().where(keys.c.scope == scope,
                                                     keys.c.created_at == row.created_at))
                    continue
            if row.request_hash != asked:
                raise Reused()
            if row.answer is None:
                raise Held()
            return self._open(scope, secret, row.answer)
        raise Held()

    def keep(self, claim: Claim, answer: Answer) -> None:
        """Store the first answer under its claimed key."""
        nonce = os.urandom(12)
        text = json.dumps({"status": answer.status, "headers": answer.headers,
                           "body": answer.body.decode("utf-8")}).encode()
        sealed = nonce + AESGCM(claim.secret).encrypt(nonce, text, claim.scope.encode())
        with self.engine.begin() as conn:
            conn.execute(keys.update().where(keys.c.scope == claim.scope).values(answer=sealed))

    def release(self, claim: Claim) -> None:
        """Forget a claimed key whose request failed for a passing reason, so a retry runs;
        where the database cannot be reached either, it is forgotten at this worker's next
        claim (else its claim lapses after HELD_SECONDS)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(keys.delete().where(keys.c.scope == claim.scope))
        except sa.exc.SQLAlchemyError:
            self.unreleased.append(claim)
            raise

    def _release_pending(self) -> None:
        while self.unreleased:
            claim = self.unreleased[0]
            try:
                with self.engine.begin() as conn:
                    conn.execute(keys.delete().where(keys.c.scope == claim.scope,
                                                     keys.c.answer.is_(None)))
            except sa.exc.SQLAlchemyError:
                return  # the database is still away: the request being claimed will say so
            self.unreleased.pop(0)

    @staticmethod
    def _open(scope: str, secret: bytes, sealed: bytes) -> Answer:
        """The stored answer; bound to its scope, so a row moved under another does not open."""
        nonce, text = sealed[:12], sealed[12:]
        stored = json.loads(AESGCM(secret).decrypt(nonce, text, scope.encode()))
        return Answer(stored["status"], stored["headers"], stored["body"].encode())

    def prune(self) -> int:
        cutoff = datetime.now(UTC) - timedelta(hours=KEEP_HOURS)
        with self.engine.begin() as conn:
            return conn.execute(keys.delete().where(keys.c.created_at < cutoff)).rowcount
