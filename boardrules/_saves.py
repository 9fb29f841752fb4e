"""The save format (``State.to_json`` / ``Game.state_from_json``): its envelope, its
keyed signature, and the field-by-field comparison of a saved position with the replayed one."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from typing import Any

from boardrules.errors import InvalidStateError

STATE_FORMAT = "boardrules-state"
_HEX_WORD = re.compile(r"[0-9a-f]{16}")
#: Version 2 added ``rng_start`` and ``drawn`` (the RNG a restored game really had);
#: version 3 ``auto_forced``, ``forced`` (the forced steps the engine took) and ``start``
#: (the position the game started from, or null).  Version 2 saves still load.
STATE_FORMAT_VERSION = 3
_V2_FIELDS = {"format", "format_version", "game", "rules_version", "options", "auto_chance",
              "rng_start", "rng", "drawn", "history", "state"}
_V3_FIELDS = _V2_FIELDS | {"auto_forced", "forced", "start"}
#: The optional field holding a save's keyed signature (see :meth:`State.to_json`).
SIGNATURE_FIELD = "signature"
MAX_STATE_JSON_BYTES = 1_000_000
_SIGNATURE_TEXT = re.compile(r"[0-9a-f]{64}")


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidStateError(message)


def _canonical(doc: Mapping[str, Any]) -> bytes:
    """The bytes a save's signature covers: the document without its signature, with
    sorted keys and no spaces."""
    return _compact_json({k: v for k, v in doc.items() if k != SIGNATURE_FIELD}).encode("utf-8")


def _compact_json(doc: Mapping[str, Any]) -> str:
    """A saved document as text: sorted keys, no spaces (what is saved and signed)."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def _check_key(key: object) -> bytes:
    if not isinstance(key, bytes | bytearray):
        raise TypeError(f"a signing key is bytes, not {type(key).__name__}")
    if len(key) < 16:
        raise ValueError("a signing key needs at least 16 bytes")
    return bytes(key)


def sign_document(doc: Mapping[str, Any], key: bytes) -> str:
    """HMAC-SHA256 of a saved document (hex), the signature :meth:`State.to_json` adds."""
    return hmac.new(_check_key(key), _canonical(doc), hashlib.sha256).hexdigest()


def _parse_state_json(text: str | bytes, key: bytes | None = None) -> dict[str, Any]:
    """Decode and check the envelope of a saved state (and its signature, with ``key``)."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidStateError("saved state is not UTF-8") from None
    if not isinstance(text, str):
        raise TypeError(f"a saved state is JSON text, not {type(text).__name__}")
    size = len(text.encode("utf-8", "surrogatepass")) if len(text) <= MAX_STATE_JSON_BYTES else -1
    if not 0 <= size <= MAX_STATE_JSON_BYTES:
        raise InvalidStateError("saved state is too large")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"not JSON: {exc}") from None
    _expect(isinstance(doc, dict), "a saved state is a JSON object")
    if key is not None:
        signature = doc.get(SIGNATURE_FIELD)
        _expect(isinstance(signature, str), "the save is not signed")
        # Checked as text before it is compared: a signature is 64 hexadecimal digits, and
        # anything else (a lone surrogate, which no encoding takes) is refused as such.
        _expect(_SIGNATURE_TEXT.fullmatch(signature) is not None,
                "the save's signature is not 64 hexadecimal digits")
        _expect(hmac.compare_digest(signature.encode("ascii"),
                                    sign_document(doc, key).encode("ascii")),
                "the save's signature does not match: it was changed or signed with "
                "another key")
    _expect(doc.get("format") == STATE_FORMAT, f"format must be {STATE_FORMAT!r}")
    version = doc.get("format_version")
    _expect(version in (2, STATE_FORMAT_VERSION) and type(version) is int,
            f"format_version must be 2 or {STATE_FORMAT_VERSION} (saves of format 1 cannot "
            "give back the RNG their game had; save them again with this version)")
    expected = _V3_FIELDS if version == STATE_FORMAT_VERSION else _V2_FIELDS
    fields = set(doc) - {SIGNATURE_FIELD}
    _expect(fields == expected, f"fields must be exactly {sorted(expected)}, got {sorted(fields)}")
    if version == 2:  # before forced steps and positions: none of either
        doc = {**doc, "auto_forced": True, "forced": [], "start": None}
    for name in ("auto_chance", "auto_forced"):
        _expect(isinstance(doc[name], bool), f"{name} must be true or false")
    _expect(doc["start"] is None or isinstance(doc["start"], str),
            "start must be a position (text) or null")
    for name in ("rng_start", "rng"):
        rng = doc[name]
        _expect(isinstance(rng, list) and len(rng) == 4
                and all(isinstance(w, str) and _HEX_WORD.fullmatch(w) for w in rng),
                f"{name} must be 4 hexadecimal words of 16 digits")
    for name in ("drawn", "forced"):
        indices = doc[name]
        _expect(isinstance(indices, list) and all(type(i) is int for i in indices),
                f"{name} must be a list of history indices")
    _expect(isinstance(doc["history"], list) and all(isinstance(m, str) for m in doc["history"]),
            "history must be a list of move strings")
    _expect(isinstance(doc["state"], dict), "state must be an object")
    checked: dict[str, Any] = doc
    return checked


def _compare_snapshot(saved: Any, replayed: Any, where: str) -> None:
    """Field-by-field equality, naming the first field that differs."""
    if isinstance(replayed, dict):
        _expect(isinstance(saved, dict), f"{where} must be an object")
        _expect(set(saved) == set(replayed),
                f"{where} fields must be {sorted(replayed)}, got {sorted(saved)}")
        for key in replayed:
            _compare_snapshot(saved[key], replayed[key], f"{where}.{key}")
    elif isinstance(replayed, list):
        _expect(isinstance(saved, list) and len(saved) == len(replayed),
                f"{where} must be a list of {len(replayed)} items")
        for i, (a, b) in enumerate(zip(saved, replayed, strict=True)):
            _compare_snapshot(a, b, f"{where}[{i}]")
    else:
        _expect(type(saved) is type(replayed) and saved == replayed,
                f"{where} is {saved!r}, but the history gives {replayed!r}")
