"""End-to-end sealing of every message between the laptop and one seat's phone (docs/phones.md).

NaCl secretbox (XSalsa20-Poly1305). The seat's link key travels only in the URL fragment of the
seat's link (a browser never sends a fragment to the server); it seals the phone's hello. Every
connection then agrees on a key of its own: the laptop's fresh X25519 key (in the challenge) with
the phone's device key (in the hello), mixed with the link key. Whoever holds the link key and
watched the Wi-Fi still cannot read a connection or speak for its device: that takes the device's
secret, which never leaves the phone. The phone runs the same constructions (TweetNaCl, served
from narrator/phones/static).

Every plaintext is padded to a fixed size before sealing, `FRAME` bytes down and `UP_FRAME` up,
so every sealed message of a direction has the same length whatever it says. `FRAME` is sized from
the largest view any pack can put on a phone (narrator/phones/frame.py, tested over every pack
and every table size).

Replays: each connection starts with a fresh challenge from the laptop; every message carries it
(`c`) and a counter (`n`) that only grows, per direction. A message from another connection, or
one seen before, is refused.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from typing import Any, Mapping

import nacl.bindings
import nacl.exceptions
import nacl.public
import nacl.secret
import nacl.utils

from narrator.errors import NarratorError

# Plaintext bytes of every message to a phone and of every message from one (UTF-8 JSON, padded
# with spaces, which JSON ignores). FRAME holds the largest view of any pack at any table size
# (narrator/phones/frame.py computes it; tests/phones/test_frame.py checks every pack and 1-30 seats).
FRAME = 4096
UP_FRAME = 256  # a phone sends a hello, a tap or nothing: small, always the same length
KEY_BYTES = nacl.secret.SecretBox.KEY_SIZE  # 32
TOKEN_BYTES = 32  # 256 bits
DEVICE_BYTES = nacl.public.PublicKey.SIZE  # 32: an X25519 public key names a device
_NONCE_BYTES = nacl.secret.SecretBox.NONCE_SIZE
_OVERHEAD = _NONCE_BYTES + nacl.secret.SecretBox.MACBYTES
SEALED_BYTES = _OVERHEAD + FRAME  # every binary WebSocket message to a phone
SEALED_UP_BYTES = _OVERHEAD + UP_FRAME  # every one from a phone


class Refused(NarratorError):
    """A message or a connection the laptop does not accept (its reason says why); `code` is the
    WebSocket close code the phone gets."""

    def __init__(self, reason: str, /, code: int = 4401, **slots: object) -> None:
        super().__init__(reason, **slots)
        self.code = code


class TooLong(ValueError):
    """A message that does not fit its frame (the hub fits a view before it seals it)."""


def new_key() -> bytes:
    return nacl.utils.random(KEY_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def key_text(key: bytes) -> str:
    """A key as it goes in the link's fragment (URL-safe base64, no padding)."""
    return base64.urlsafe_b64encode(key).decode("ascii").rstrip("=")


def key_bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def pad(message: Mapping[str, Any], size: int = FRAME) -> bytes:
    return _padded(encode(message), size)


def _padded(data: bytes, size: int) -> bytes:
    if len(data) > size:
        raise TooLong(f"a phone message of {len(data)} bytes does not fit a frame of {size}")
    return data + b" " * (size - len(data))


def seal(key: bytes, message: Mapping[str, Any], size: int = FRAME) -> bytes:
    return _seal(key, pad(message, size))


def _seal(key: bytes, plain: bytes) -> bytes:
    # The bytes of `SecretBox(key).encrypt(plain)` (a random nonce, then the box), without the
    # wrapper object it builds around them: the hub seals a frame per seat on every beat.
    nonce = nacl.utils.random(_NONCE_BYTES)
    return nonce + nacl.bindings.crypto_secretbox_easy(plain, nonce, key)


def unseal(key: bytes, data: bytes, size: int = UP_FRAME) -> dict[str, Any]:
    """The message inside `data`; `Refused` when it is not one sealed with `key` (tampered, forged)."""
    if len(data) != _OVERHEAD + size:
        raise Refused("a message of {n_bytes} bytes, not {expected}", n_bytes=len(data), expected=_OVERHEAD + size)
    try:
        plain = nacl.bindings.crypto_secretbox_open_easy(data[_NONCE_BYTES:], data[:_NONCE_BYTES], key)
        message = json.loads(_unpadded(plain).decode("utf-8"))
    except (ValueError, RecursionError, nacl.exceptions.CryptoError) as exc:
        raise Refused("a message that does not open with the seat's key ({error_type})",
                      error_type=type(exc).__name__) from None
    if not isinstance(message, dict):
        raise Refused("a message that is not an object")
    return message


def _unpadded(plain: bytes) -> bytes:
    """`plain` up to its object's closing brace when only spaces (the padding) follow it, else all of
    it: the same JSON either way (JSON ignores the spaces), without the decoder scanning thousands
    of them one by one on every frame."""
    end = plain.rfind(b"}") + 1
    return plain[:end] if end and plain.endswith(b" " * (len(plain) - end)) else plain


def session_key(link: bytes, shared: bytes) -> bytes:
    """A connection's key: the link key and the X25519 secret both ends agreed on (SHA-512, the
    first 32 bytes; the page computes it with TweetNaCl's `nacl.hash`)."""
    return hashlib.sha512(link + shared).digest()[:KEY_BYTES]


class Channel:
    """One connection's sealing state: its challenge, the laptop's key for it, both counters.

    The hello opens with the link key; `agree(device)` then switches both directions to the
    connection's own key."""

    def __init__(self, key: bytes) -> None:
        self.link = key
        self.key = key
        self.challenge = secrets.token_urlsafe(16)
        self._secret = nacl.public.PrivateKey.generate()
        self.public = bytes(self._secret.public_key)
        self.sent = 0
        self.heard = 0
        # What `encode` writes for `"c": challenge` after a message's own members, for the challenge
        # it was written for: the same for every frame of the connection, written once, not on each beat.
        self._challenge_member: tuple[str | None, bytes] = (None, b"")

    def opening(self) -> str:
        """The first message, in the clear and always the same length: the challenge, the laptop's
        key for this connection, the size of the phone's frames."""
        return json.dumps({"t": "challenge", "c": self.challenge, "s": key_text(self.public), "up": UP_FRAME},
                          separators=(",", ":"))

    def agree(self, device: bytes) -> None:
        shared = nacl.bindings.crypto_box_beforenm(device, bytes(self._secret))
        self.key = session_key(self.link, shared)

    def seal(self, message: Mapping[str, Any]) -> bytes:
        self.sent += 1
        return seal(self.key, {**message, "c": self.challenge, "n": self.sent})

    def seal_encoded(self, body: bytes) -> bytes | None:
        """`seal(message)` for a `message` already encoded (`body` is `encode(message)`, an object
        with members, none of them "c" or "n"): the same plaintext, byte for byte, with the challenge
        and the counter put in before its closing brace. None, with nothing counted, when it does not
        fit its frame (the caller cuts the view). The hub sends a seat's unchanged view on every
        beat: it encodes it once."""
        plain = body[:-1] + self._tail(self.sent + 1)
        if len(plain) > FRAME:
            return None
        self.sent += 1
        return _seal(self.key, _padded(plain, FRAME))

    def _tail(self, n: int) -> bytes:
        # What `encode` writes for `{..., "c": challenge, "n": n}` after the message's own members.
        if self._challenge_member[0] != self.challenge:
            member = b',"c":' + json.dumps(self.challenge, ensure_ascii=False).encode("utf-8")
            self._challenge_member = (self.challenge, member)
        return self._challenge_member[1] + b',"n":' + str(n).encode("ascii") + b"}"

    def unseal(self, data: bytes) -> dict[str, Any]:
        message = unseal(self.key, data)
        if message.get("c") != self.challenge:
            raise Refused("a message of another connection (replayed)")
        n = message.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n <= self.heard:
            raise Refused("a message numbered {n!r} after {heard} (replayed or reordered)", n=n, heard=self.heard)
        self.heard = n
        return message
