"""Signed heads: the server's Ed25519 signature over the newest event of an exported log.

A hash chain alone proves only that its events agree with each other: whoever
holds a file can cut off its tail, or change an event and recompute every hash
after it, and the result is as consistent as the original. So, after
Certificate Transparency's signed tree heads (RFC 6962, section 3.5), the
server signs the *head* of every export it writes - the table's id, the last
event's seq and hash, and when it signed - with its own Ed25519 key. Cutting
the tail changes the head's seq; changing any event changes the head's hash;
changing the head breaks the signature.

* The key is a PKCS#8 PEM file made on first use with mode 0600:
  ``REFEREE_SIGNING_KEY`` names it; otherwise it is ``referee-signing-key.pem``
  beside the SQLite database (by default the user's data directory), or in
  the user's data directory for PostgreSQL.
* A key's id is the first 8 bytes of the SHA-256 of its raw public key, in hex.
* A head is trusted when its key is the server's own or one given with
  ``--trust`` (or ``REFEREE_TRUSTED_KEYS``); a valid signature by another key
  is reported untrusted with its id; a file without a head is unsigned.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from referee.errors import RulesError
from referee.systems.base import JSONObject, JSONValue
from referee.table.events import Event, LogError, canonical

ENV_KEY: Final = "REFEREE_SIGNING_KEY"
"""The environment variable naming the server's key file."""

ENV_TRUSTED: Final = "REFEREE_TRUSTED_KEYS"
"""Public keys (or files holding them) trusted besides the server's own, comma-separated."""

KEY_FILE: Final = "referee-signing-key.pem"
"""The key file's name in its directory."""

ALGORITHM: Final = "Ed25519"

DOMAIN: Final = b"referee signed head v1\n"
"""Prefixed to every signed byte string, so a head's signature means nothing elsewhere."""

Signature = Literal["trusted", "untrusted", "unsigned"]
"""What an import or a file's verification says of its signature."""

HEAD_FIELDS: Final = frozenset(
    {"table", "seq", "hash", "signed_at", "key", "algorithm", "public_key", "signature"}
)


class SigningKeyError(RulesError):
    """A key file or a ``--trust`` key that cannot be used."""


# ---------------------------------------------------------------------------
# keys


def raw_public(key: Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of a public key."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """A public key's id: the first 8 bytes of SHA-256 over its raw bytes, in hex."""
    return hashlib.sha256(raw_public(key)).hexdigest()[:16]


def public_text(key: Ed25519PublicKey) -> str:
    """A public key as ``--trust`` takes it: base64 of its 32 raw bytes."""
    return base64.b64encode(raw_public(key)).decode()


@dataclass(frozen=True)
class Signer:
    """The server's signing key and where it is kept."""

    private: Ed25519PrivateKey
    path: Path

    @property
    def public(self) -> Ed25519PublicKey:
        """The public half."""
        return self.private.public_key()

    @property
    def id(self) -> str:
        """The key's id (:func:`key_id`)."""
        return key_id(self.public)


def key_path(database_url: str | None = None) -> Path:
    """Where the server's key is kept (see the module text)."""
    named = os.environ.get(ENV_KEY)
    if named:
        return Path(named).expanduser()
    if database_url is not None and database_url.startswith("sqlite"):
        file = database_url.split(":///", 1)[-1] if ":///" in database_url else ""
        if file and file != ":memory:" and not file.startswith("file:"):
            return Path(file).expanduser().resolve().parent / KEY_FILE
    from platformdirs import user_data_dir

    return Path(user_data_dir("referee", appauthor=False)) / KEY_FILE


def load_signer(path: Path) -> Signer:
    """The key in ``path``, made there (mode 0600) if the file does not exist yet.

    Two processes making it at once end up with the same key: the new file is
    written aside and linked into place only if nothing is there yet."""
    if not path.exists():
        _create(path)
    try:
        pem = path.read_bytes()
    except OSError as e:
        raise SigningKeyError(f"cannot read the signing key {path}: {e.strerror or e}") from None
    try:
        private = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError):
        raise SigningKeyError(f"{path}: not an unencrypted PEM private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise SigningKeyError(f"{path}: not an Ed25519 key")
    return Signer(private, path)


def _create(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as e:
        raise SigningKeyError(
            f"cannot make the key's folder {path.parent}: {e.strerror or e}"
        ) from None
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    aside = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
    try:
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, pem)
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs
            os.link(aside, path)
    except OSError as e:
        raise SigningKeyError(f"cannot write the signing key {path}: {e.strerror or e}") from None
    finally:
        aside.unlink(missing_ok=True)


def server_signer(database_url: str | None = None, key_file: str | None = None) -> Signer:
    """The server's key: the one kept for a database (:func:`key_path`), or the file
    ``key_file`` (the command line's ``--key``) when given; made on first use."""
    return load_signer(Path(key_file).expanduser() if key_file else key_path(database_url))


def parse_public(text: str, where: str = "--trust", *, files: bool = True) -> Ed25519PublicKey:
    """A public key from base64 or hex of its 32 raw bytes, a PEM public key, or (with
    ``files``: never for what a file brought) a file holding any of these."""
    value = text.strip()
    if files and value and "\n" not in value and "-----" not in value and Path(value).is_file():
        try:
            value = Path(value).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as e:
            raise SigningKeyError(f"{where} {text!r}: cannot read the file ({e})") from None
    if value.startswith("-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(value.encode())
        except ValueError:
            raise SigningKeyError(f"{where} {text!r}: not a PEM public key") from None
        if not isinstance(key, Ed25519PublicKey):
            raise SigningKeyError(f"{where} {text!r}: not an Ed25519 public key")
        return key
    raw: bytes | None = None
    if len(value) == 64:
        try:
            raw = bytes.fromhex(value)
        except ValueError:
            raw = None
    if raw is None:
        try:
            raw = base64.b64decode(value.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            raw = None
    if raw is None or len(raw) != 32:
        raise SigningKeyError(
            f"{where} {text!r}: not an Ed25519 public key (give base64 or hex of its "
            "32 bytes, a PEM public key, or a file holding one)"
        )
    return Ed25519PublicKey.from_public_bytes(raw)


def trusted_keys(extra: Iterable[str] = (), own: Signer | None = None) -> dict[str, bytes]:
    """Trusted keys by id: the server's own, those in ``REFEREE_TRUSTED_KEYS``, and
    ``extra`` (each ``--trust``)."""
    keys: dict[str, bytes] = {}
    if own is not None:
        keys[own.id] = raw_public(own.public)
    env = [(k, ENV_TRUSTED) for k in os.environ.get(ENV_TRUSTED, "").split(",") if k.strip()]
    for text, where in [*env, *((k, "--trust") for k in extra)]:
        key = parse_public(text, where)
        keys[key_id(key)] = raw_public(key)
    return keys


# ---------------------------------------------------------------------------
# heads


def signed_bytes(table: str, seq: int, head_hash: str, signed_at: str, kid: str) -> bytes:
    """What a head's signature covers: a fixed prefix, then the canonical JSON of the
    table's id, the last event's seq and hash, the signing time and the key's id."""
    body: JSONObject = {
        "table": table,
        "seq": seq,
        "hash": head_hash,
        "signed_at": signed_at,
        "key": kid,
    }
    return DOMAIN + canonical(body).encode()


def sign_head(signer: Signer, table: str, events: Sequence[Event]) -> JSONObject:
    """The signed head of a log: its last event's seq and hash, signed by ``signer``."""
    last = events[-1]
    at = datetime.now(UTC).isoformat(timespec="seconds")
    sig = signer.private.sign(signed_bytes(table, last.seq, last.hash, at, signer.id))
    return {
        "table": table,
        "seq": last.seq,
        "hash": last.hash,
        "signed_at": at,
        "key": signer.id,
        "algorithm": ALGORITHM,
        "public_key": public_text(signer.public),
        "signature": base64.b64encode(sig).decode(),
    }


@dataclass(frozen=True)
class Checked:
    """What :func:`check_head` found: the signature's standing and the key's id."""

    signature: Signature
    key: str = ""


def check_head(
    head: JSONValue, table: str, events: Sequence[Event], trusted: dict[str, bytes]
) -> Checked:
    """Check an export's ``head`` against its events (:class:`LogError` if it fails).

    No head: unsigned. Otherwise the signature must hold for the head as written,
    and the head must name this table and the log's last event (its seq and hash):
    a cut tail or a log changed since it was signed is refused."""
    if head is None:
        return Checked("unsigned")
    if not isinstance(head, dict):
        raise LogError("the export's 'head' is not an object")
    extra = sorted(set(head) - HEAD_FIELDS)
    missing = sorted(HEAD_FIELDS - set(head))
    if extra or missing:
        named = ", ".join([*(f"unknown {k!r}" for k in extra), *(f"no {k!r}" for k in missing)])
        raise LogError(f"the export's 'head' is malformed: {named}")
    seq, head_hash = head["seq"], head["hash"]
    texts = [head[k] for k in ("table", "hash", "signed_at", "key", "algorithm")]
    if (
        not isinstance(seq, int)
        or isinstance(seq, bool)
        or not all(isinstance(t, str) for t in texts)
    ):
        raise LogError("the export's 'head' has a field of the wrong type")
    if head["algorithm"] != ALGORITHM:
        raise LogError(f"the head is signed with {head['algorithm']!r}; this reads {ALGORITHM}")
    try:
        key = parse_public(str(head["public_key"]), "the head's public_key", files=False)
    except SigningKeyError as e:
        raise LogError(str(e)) from None
    kid = key_id(key)
    if head["key"] != kid:
        raise LogError(f"the head names key {head['key']!r} but carries key {kid}")
    try:
        sig = base64.b64decode(str(head["signature"]), validate=True)
        key.verify(sig, signed_bytes(str(head["table"]), seq, str(head_hash), *texts[2:4]))
    except (binascii.Error, ValueError, InvalidSignature):
        raise LogError(
            f"the head's signature (key {kid}) does not hold: the head was changed"
        ) from None
    if head["table"] != table:
        raise LogError(f"the signed head is table {head['table']!r}'s, not {table!r}'s")
    last = events[-1] if events else None
    if last is None or seq != last.seq:
        ends = last.seq if last is not None else 0
        raise LogError(
            f"the signed head is event {seq} but the file ends at event {ends}: "
            "events were cut off or added after it was signed",
            ends,
        )
    if head_hash != last.hash:
        raise LogError(
            "the signed head's hash is not this event's: the log was changed after it "
            "was signed (its hashes recomputed)",
            seq,
        )
    return Checked("trusted" if trusted.get(kid) == raw_public(key) else "untrusted", kid)


def describe(checked: Checked) -> str:
    """One phrase for a report: "signed by trusted key ...", or "unsigned"."""
    if checked.signature == "unsigned":
        return "unsigned"
    return f"signed by {checked.signature} key {checked.key}"
