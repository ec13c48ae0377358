"""Signed exports (issue 20): the server signs each export's head (the last event's seq
and hash) with its own Ed25519 key; import and verify say whether a file is signed by a
trusted key, and refuse a signed file whose tail was cut or whose chain was recomputed.

The three attacks are those the issue names, each made the way a forger would make it
(the hash chain recomputed so the file is self-consistent): a cut-off tail, an edited
note, two events swapped on an unseeded table. Signed, each is refused; with the head
taken off, each still imports - and is reported unsigned, which is all a hash chain can
say of itself.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee.cli.main import run
from referee.table import audit, signing
from referee.table.audit import export, import_table, verify_file
from referee.table.events import LogError, event_from_data
from referee.table.service import TableService
from referee.table.store import Store

Doc = dict[str, Any]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


FORGERIES = ("cut tail", "edited note", "swapped events")  # tests/conftest.py: forgeries


def _canon(value: Any) -> str:  # the signed head's canonical JSON, written out here
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


REFUSALS = {
    "cut tail": "the signed head is event 14 but the file ends at event 12",
    "edited note": "the signed head's hash is not this event's",
    "swapped events": "the signed head's hash is not this event's",
}


def unsigned(doc: Doc) -> Doc:
    return {k: v for k, v in doc.items() if k != "head"}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A server's folder: its database and (beside it) its key."""
    monkeypatch.delenv(signing.ENV_KEY, raising=False)
    monkeypatch.delenv(signing.ENV_TRUSTED, raising=False)
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def _table(db: str) -> str:
    """An unseeded Mnemonic table of 14 events: two notes, four checks rolled by hand."""
    service = TableService(Store(db))
    tid = service.create("mnemonic", "Night", "Kim").table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "boxer", owner="Ann")
    service.note(tid, "Ann", "I open the door")
    for aptitude, faces in ((6, (2,)), (3, (9,)), (9, (1,)), (4, (7,))):
        service.act(tid, "Kim", "check", {"aptitude": aptitude}, faces=faces)
    service.note(tid, "Kim", "the door creaks")
    for _ in range(5):
        service.note(tid, "Ann", "and again")
    service.store.close()
    return tid


def _exported(capsys: pytest.CaptureFixture[str], home: Path) -> tuple[Doc, str]:
    db = f"sqlite:///{home / 'referee.db'}"
    _table(db)
    out = home / "night.json"
    assert _run(capsys, "table", "export", "Night", "--out", str(out), "--db", db)[0] == 0
    return json.loads(out.read_text()), db


def test_an_export_carries_its_head_signed_with_the_servers_key(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    doc, db = _exported(capsys, home)
    key_file = home / signing.KEY_FILE
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600  # made on first use, private
    private = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
    assert isinstance(private, Ed25519PrivateKey)
    raw = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    head = doc["head"]
    last = doc["events"][-1]
    assert (head["seq"], head["hash"], head["table"]) == (14, last["hash"], doc["table"]["id"])
    assert head["key"] == hashlib.sha256(raw).hexdigest()[:16]
    assert base64.b64decode(head["public_key"]) == raw
    # the signature, checked here with the key read from the file, over the documented bytes
    body = {k: head[k] for k in ("table", "seq", "hash", "signed_at", "key")}
    message = b"referee signed head v1\n" + _canon(body).encode()
    private.public_key().verify(base64.b64decode(head["signature"]), message)
    code, out, _ = _run(capsys, "table", "key", "--db", db, "--json")
    shown = json.loads(out)
    assert code == 0 and shown["key"] == head["key"] and shown["public_key"] == head["public_key"]
    assert Path(shown["file"]) == key_file
    # the same key on every later use
    assert signing.server_signer(db).id == head["key"]


@pytest.mark.parametrize("attack", FORGERIES)
def test_a_signed_file_cut_or_rehashed_is_refused_by_import_and_verify(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    attack: str,
    forgeries: dict[str, Callable[[Doc], Doc]],
) -> None:
    doc, _db = _exported(capsys, home)
    forged = forgeries[attack](doc)
    assert forged["head"] == doc["head"]  # the forger kept the server's signed head
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    other = f"sqlite:///{tmp_path / 'other.db'}"
    code, _out, err = _run(capsys, "table", "import", str(path), "--db", other)
    assert code != 0 and REFUSALS[attack] in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    code, out, _ = _run(capsys, "table", "verify", str(path), "--db", other, "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and REFUSALS[attack] in report["problem"]
    code, out, _ = _run(capsys, "table", "verify", str(path), "--db", other)
    assert code == 1 and "BROKEN" in out and REFUSALS[attack] in out
    assert TableService(Store(other)).store.tables() == []  # nothing written


@pytest.mark.parametrize("attack", FORGERIES)
def test_the_same_attacks_unsigned_import_and_are_reported_unsigned(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    attack: str,
    forgeries: dict[str, Callable[[Doc], Doc]],
) -> None:
    doc, db = _exported(capsys, home)
    forged = unsigned(forgeries[attack](doc))
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    code, out, _ = _run(capsys, "table", "verify", str(path), "--db", db, "--json")
    assert code == 0 and json.loads(out) == {
        "ok": True,
        "events": len(forged["events"]),
        "seq": 0,
        "problem": "",
        "signature": "unsigned",
        "key": None,
    }
    other = f"sqlite:///{tmp_path / 'other.db'}"
    code, out, err = _run(capsys, "table", "import", str(path), "--db", other)
    assert code == 0, err
    assert out.strip() == (
        f"imported {len(forged['events'])} events; chain and replays verified; unsigned"
    )
    code, out, err = _run(
        capsys, "table", "import", str(path), "--db", f"sqlite:///{tmp_path / 'x.db'}",
        "--require-trusted",
    )  # fmt: skip
    assert code != 0 and "the file is unsigned; only a trusted signature is taken" in err


def test_trust_the_servers_own_key_or_one_given(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    doc, db = _exported(capsys, home)
    kid = doc["head"]["key"]
    path = home / "night.json"
    # the same server (its own key, beside its database) trusts it
    code, out, _ = _run(capsys, "table", "verify", str(path), "--db", db, "--json")
    assert code == 0 and (json.loads(out)["signature"], json.loads(out)["key"]) == ("trusted", kid)
    # another server (another folder, so another key) does not, until told to
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = f"sqlite:///{elsewhere / 'referee.db'}"
    code, out, _ = _run(capsys, "table", "verify", str(path), "--db", other)
    assert code == 0 and out.strip().endswith(f"; signed by untrusted key {kid}")
    code, _out, err = _run(capsys, "table", "import", str(path), "--db", other, "--require-trusted")
    assert code != 0 and f"the file is signed by untrusted key {kid}" in err
    public = doc["head"]["public_key"]
    as_hex = base64.b64decode(public).hex()
    key_file = tmp_path / "friend.pub"
    key_file.write_text(public + "\n")
    for trust in (public, as_hex, str(key_file)):
        code, out, _ = _run(capsys, "table", "verify", str(path), "--db", other, "--trust", trust)
        assert code == 0 and out.strip().endswith(f"; signed by trusted key {kid}"), trust
    code, out, _ = _run(
        capsys, "table", "import", str(path), "--db", other, "--trust", public, "--json"
    )
    assert code == 0 and json.loads(out) == {
        "ok": True,
        "events": 14,
        "seq": 0,
        "problem": "",
        "signature": "trusted",
        "key": kid,
    }
    # an untrusted signature still imports (it says who signed; nothing was changed since)
    third = f"sqlite:///{tmp_path / 'third.db'}"
    code, out, _ = _run(capsys, "table", "import", str(path), "--db", third)
    assert code == 0 and out.strip().endswith(f"verified; signed by untrusted key {kid}")


def test_a_forger_who_re_signs_or_edits_the_head(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    forgeries: dict[str, Callable[[Doc], Doc]],
) -> None:
    doc, db = _exported(capsys, home)
    cut = forgeries["cut tail"](doc)
    # the head moved to the cut file's end: the server's signature no longer holds
    moved = {**cut, "head": {**doc["head"], "seq": 12, "hash": cut["events"][-1]["hash"]}}
    with pytest.raises(LogError, match=r"the head's signature .* does not hold"):
        verify_file(moved)
    # signed again with the forger's own key: it imports, as signed by *that* key only
    forger = signing.load_signer(tmp_path / "forger.pem")
    resigned = {
        **cut,
        "head": signing.sign_head(
            forger, doc["table"]["id"], [event_from_data(e) for e in cut["events"]]
        ),
    }
    own = signing.trusted_keys(own=signing.server_signer(db))
    report = verify_file(resigned, own)
    assert (report.signature, report.key) == ("untrusted", forger.id)
    assert forger.id != doc["head"]["key"]
    # a head honestly signed for another table does not fit this one
    elsewhere = signing.sign_head(forger, "t-other", [event_from_data(e) for e in doc["events"]])
    with pytest.raises(LogError, match="the signed head is table 't-other''s, not"):
        verify_file({**doc, "head": elsewhere})
    # claiming the server's key id for the forger's key is caught
    with pytest.raises(LogError, match=r"names key .* but carries key"):
        verify_file({**resigned, "head": {**resigned["head"], "key": doc["head"]["key"]}}, own)
    bad_heads: list[tuple[Any, str]] = [
        ([], "'head' is not an object"),
        ({**doc["head"], "extra": 1}, "unknown 'extra'"),
        ({k: v for k, v in doc["head"].items() if k != "signature"}, "no 'signature'"),
        ({**doc["head"], "seq": "14"}, "a field of the wrong type"),
        ({**doc["head"], "algorithm": "RSA"}, "signed with 'RSA'"),
        ({**doc["head"], "public_key": "xyz"}, "the head's public_key 'xyz': not an Ed25519"),
        ({**doc["head"], "signature": "!!"}, "signature .* does not hold"),
        ({**doc["head"], "table": "other"}, "signature .* does not hold"),
    ]
    for head, message in bad_heads:
        with pytest.raises(LogError, match=message):
            verify_file({**doc, "head": head})


def test_old_unsigned_exports_still_import(home: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{home / 'referee.db'}"
    tid = _table(db)
    service = TableService(Store(db))
    old = export(service, tid)  # as every export was written before signing
    assert "head" not in old
    other = TableService(Store(f"sqlite:///{tmp_path / 'o.db'}"))
    report = import_table(other, json.loads(json.dumps(old)))
    assert (report.ok, report.events, report.signature, report.key) == (True, 14, "unsigned", "")
    assert other.load(tid).hash == service.load(tid).hash


def test_a_player_export_is_signed_with_the_same_head(home: Path) -> None:
    db = f"sqlite:///{home / 'referee.db'}"
    tid = _table(db)
    service = TableService(Store(db))
    signer = signing.server_signer(db)
    mine = export(service, tid, "Ann", signer=signer)
    whole = export(service, tid, signer=signer)
    assert mine["redacted"] is True
    head = mine["head"]
    assert isinstance(head, dict) and isinstance(whole["head"], dict)
    assert (head["seq"], head["hash"]) == (whole["head"]["seq"], whole["head"]["hash"])


def test_bad_trust_and_key_files_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    _doc, db = _exported(capsys, home)
    path = str(home / "night.json")
    not_a_key = tmp_path / "junk.pem"
    not_a_key.write_text("hello")
    for args, expected in (
        (("--trust", "abc"), "--trust 'abc': not an Ed25519 public key"),
        (("--trust", "00" * 31), "not an Ed25519 public key"),
        (("--key", str(not_a_key)), "junk.pem: not an unencrypted PEM private key"),
    ):
        code, _out, err = _run(capsys, "table", "import", path, "--db", db, *args)
        assert code != 0 and expected in err, (args, err)
        assert err.count("\n") == 1 and "Traceback" not in err


def test_the_key_is_made_once_even_when_two_ask_at_once(tmp_path: Path) -> None:
    import threading

    path = tmp_path / "deep" / "k.pem"
    ids: list[str] = []
    threads = [
        threading.Thread(target=lambda: ids.append(signing.load_signer(path).id)) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(ids)) == 1 and len(ids) == 8
    assert [p.name for p in path.parent.iterdir()] == ["k.pem"]  # no file left aside


def test_where_the_key_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(signing.ENV_KEY, raising=False)
    db = tmp_path / "srv" / "referee.db"
    assert signing.key_path(f"sqlite:///{db}") == db.parent / "referee-signing-key.pem"
    from platformdirs import user_data_dir

    data = Path(user_data_dir("referee", appauthor=False))
    assert signing.key_path("postgresql+psycopg://u@h/d") == data / "referee-signing-key.pem"
    monkeypatch.setenv(signing.ENV_KEY, str(tmp_path / "mine.pem"))
    assert signing.key_path(f"sqlite:///{db}") == tmp_path / "mine.pem"


def test_an_import_is_bounded_by_its_events(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{home / 'referee.db'}"
    tid = _table(db)
    doc = json.loads(json.dumps(export(TableService(Store(db)), tid)))
    monkeypatch.setattr(audit, "MAX_EVENTS", 13)
    with pytest.raises(LogError, match="the export holds 14 events; at most 13"):
        verify_file(doc)
    monkeypatch.setattr(audit, "MAX_EVENTS", 14)
    assert verify_file(doc).ok
    deep: Any = "x"
    for _ in range(70):
        deep = [deep]
    doc["events"][4]["payload"]["text"] = deep
    with pytest.raises(LogError, match="nested more than 64 levels deep"):
        verify_file(doc)
