"""End-to-end sealing of every message between the laptop and one seat's phone (docs/phones.md).

NaCl secretbox (XSalsa20-Poly1305) with the seat's 32-byte key, which travels only in the URL
fragment of the seat's link (a browser never sends a fragment to the server). The phone runs the
same construction (TweetNaCl, served from narrator/phones/static). Every plaintext is padded to
`FRAME` bytes before sealing, so every sealed message has the same length whatever it says.

Replays: each connection starts with a fresh challenge from the laptop; every message carries it
(`c`) and a counter (`n`) that only grows, per direction. A message from another connection, or
one seen before, is refused.
"""

from __future__ import annotations

import base64
import json
import secrets
from typing import Any, Mapping

import nacl.exceptions
import nacl.secret
import nacl.utils

from narrator.errors import NarratorError

# Plaintext bytes of every message, padded with spaces (JSON ignores them).
FRAME = 2048
KEY_BYTES = nacl.secret.SecretBox.KEY_SIZE  # 32
TOKEN_BYTES = 32  # 256 bits; the issue asks for at least 128
# The text of a sealed message: base64 of nonce (24) + MAC (16) + FRAME.
SEALED_CHARS = len(base64.b64encode(bytes(24 + 16 + FRAME)))


class Refused(NarratorError):
    """A message or a connection the laptop does not accept (its reason says why); `code` is the
    WebSocket close code the phone gets."""

    def __init__(self, reason: str, /, code: int = 4401, **slots: object) -> None:
        super().__init__(reason, **slots)
        self.code = code


def new_key() -> bytes:
    return nacl.utils.random(KEY_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def key_text(key: bytes) -> str:
    """The key as it goes in the link's fragment (URL-safe base64, no padding)."""
    return base64.urlsafe_b64encode(key).decode("ascii").rstrip("=")


def pad(message: Mapping[str, Any]) -> bytes:
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    if len(data) > FRAME:
        raise ValueError(f"a phone message of {len(data)} bytes does not fit a frame of {FRAME}")
    return data + b" " * (FRAME - len(data))


def seal(key: bytes, message: Mapping[str, Any]) -> str:
    box = nacl.secret.SecretBox(key)
    return base64.b64encode(bytes(box.encrypt(pad(message)))).decode("ascii")


def unseal(key: bytes, text: str) -> dict[str, Any]:
    """The message inside `text`; `Refused` when it is not one sealed with `key` (tampered, forged)."""
    if len(text) != SEALED_CHARS:
        raise Refused("a message of {n_text} characters, not {expected}", n_text=len(text), expected=SEALED_CHARS)
    try:
        raw = base64.b64decode(text, validate=True)
        plain = nacl.secret.SecretBox(key).decrypt(raw)
        message = json.loads(plain.decode("ascii"))
    except (ValueError, nacl.exceptions.CryptoError) as exc:
        raise Refused("a message that does not open with the seat's key ({error_type})", error_type=type(exc).__name__) from None
    if not isinstance(message, dict):
        raise Refused("a message that is not an object")
    return message


class Channel:
    """One connection's sealing state: its challenge and both counters."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.challenge = secrets.token_urlsafe(16)
        self.sent = 0
        self.heard = 0

    def seal(self, message: Mapping[str, Any]) -> str:
        self.sent += 1
        return seal(self.key, {**message, "c": self.challenge, "n": self.sent})

    def unseal(self, text: str) -> dict[str, Any]:
        message = unseal(self.key, text)
        if message.get("c") != self.challenge:
            raise Refused("a message of another connection (replayed)")
        n = message.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n <= self.heard:
            raise Refused("a message numbered {n!r} after {heard} (replayed or reordered)", n=n, heard=self.heard)
        self.heard = n
        return message
