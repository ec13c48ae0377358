"""Documentation that runs: every shell example in README.md and docs/*.md, as written.

The fenced blocks marked ``sh``, ``bash`` or ``console`` are run in order, one document at a
time, in a throwaway directory: ``HOME``, the data directory (``XDG_DATA_HOME``, where the
table database and the signing key live) and the working directory are a fresh temporary
folder, ``REFEREE_DATABASE_URL`` is unset, and ``referee`` (and ``.venv/bin/referee``) is this
checkout's command.

Conventions, for whoever writes the docs:

* In an ``sh``/``bash`` block every line is a command (a line ending in ``\\`` continues on the
  next; ``#`` lines are comments). Each must exit 0.
* In a ``console`` block a command starts with ``$ ``; the lines after it, up to the next
  ``$ ``, are the output the docs show. Each shown line must appear in the command's output,
  in order (other lines may come between them); ``...`` inside a line matches anything, a line
  that is only ``...`` stands for lines left out, and a note after two spaces and ``# `` at
  the end of a shown line is not part of the output.
* A command whose comment starts with ``# fails`` must exit non-zero (a refusal shown on
  purpose, e.g. ``referee mongrel validate vooruk.json   # fails: every broken rule``).
* Output that is JSON is also compared in its one-line form (``json.dumps``), so the docs
  may show ``--json`` output on one line.
* An HTML comment on the line before a block changes how it is run:
  ``<!-- docs: fails -->`` - every command must exit non-zero (an error shown on purpose);
  ``<!-- docs: skip REASON -->`` - not run, for the reason given (a server, minutes of work,
  a service the test cannot have).
* Every command runs in its own shell: an ``export`` does not carry to the next command.
* A command must start with one of :data:`RUNS` (``referee``, ``echo``...); a block with any
  other program (``sudo``, ``pip``, ``systemctl``) has to be marked skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # minutes: `make check` leaves it to `make test`

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"sh", "bash", "console"}
FENCE = re.compile(r"^(```+)\s*([\w-]*)")
MARKER = re.compile(r"^<!--\s*docs:\s*(fails|skip)\b\s*(.*?)\s*-->\s*$")
NOTE = re.compile(r"\s{2,}# .*$")
FAILS = re.compile(r"\s#\s*fails\b[^\n]*$")
TIMEOUT = 300
RUNS = frozenset({"referee", ".venv/bin/referee", "echo", "cat", "ls", "head", "python", "python3"})
"""The programs a documented command may start with. Anything else (``sudo``, ``systemctl``,
``pip``, ``curl``...) is not run on a developer's machine or in CI: its block must be marked
skipped, with the reason, or the test fails naming it."""


UNSAFE_PYTHON = re.compile(r"-m\s+(venv|pip|ensurepip)\b")
"""A Python started to make environments or install packages is not run either."""


def unsafe_programs(text: str) -> list[str]:
    """The programs a command line would start that are not in :data:`RUNS`: every command
    of a chain or a pipe (``a && b``, ``a; b``, ``a | b``), and ``python -m venv``/``pip``."""
    found = []
    code = re.sub(r"\s#.*$", "", text)  # a comment says what a line does; it runs nothing
    for part in re.split(r"&&|\|\||;|\|", code):
        words = part.split()
        if not words:
            continue
        program = words[0]
        if program not in RUNS:
            found.append(program)
        elif program.startswith("python") and UNSAFE_PYTHON.search(part):
            found.append(f"{program} -m {UNSAFE_PYTHON.search(part).group(1)}")  # type: ignore[union-attr]
    return found


@dataclass
class Command:
    line: int
    text: str
    shown: list[str] = field(default_factory=list)


@dataclass
class Block:
    path: Path
    line: int
    lang: str
    mark: str  # "", "fails" or "skip"
    reason: str
    commands: list[Command]


def _commands(lang: str, body: list[tuple[int, str]]) -> list[Command]:
    commands: list[Command] = []
    pending: Command | None = None
    for no, raw in body:
        line = raw.rstrip()
        if pending is not None and pending.text.endswith("\\"):
            pending.text += "\n" + line
            continue
        if lang == "console":
            if line.startswith("$ "):
                pending = Command(no, line[2:])
                commands.append(pending)
            elif pending is not None:
                pending.shown.append(line)
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            pending = None
            continue
        pending = Command(no, line)
        commands.append(pending)
    return commands


def blocks(path: Path) -> list[Block]:
    """The shell blocks of a Markdown file, in order, with their markers."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i].strip())
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2), i
        i += 1
        body: list[tuple[int, str]] = []
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if lang not in SHELLS:
            continue
        prev = lines[start - 1].strip() if start else ""
        marker = MARKER.match(prev)
        mark, reason = (marker.group(1), marker.group(2)) if marker else ("", "")
        found.append(Block(path, start + 1, lang, mark, reason, _commands(lang, body)))
    return found


def _pattern(shown: str) -> re.Pattern[str]:
    text = NOTE.sub("", shown).strip()
    return re.compile(".*".join(re.escape(part) for part in text.split("...")))


def missing_output(shown: list[str], output: str) -> str | None:
    """The first shown line not found in ``output`` (in order), or None."""
    actual = [line.strip() for line in output.splitlines()]
    with contextlib.suppress(ValueError):
        actual.append(json.dumps(json.loads(output)))
    at = 0
    for want in shown:
        if not want.strip() or want.strip() == "...":
            continue
        pattern = _pattern(want)
        while at < len(actual) and not pattern.fullmatch(actual[at]):
            at += 1
        if at == len(actual):
            return want
        at += 1
    return None


def environment(tmp: Path) -> dict[str, str]:
    """A throwaway home, data directory and working directory ``tmp/work``, with this
    checkout's ``referee`` first on PATH."""
    bindir = Path(sys.executable).parent
    referee = shutil.which("referee", path=str(bindir)) or shutil.which("referee")
    assert referee, "the referee command is not installed (pip install -e .)"
    venv_bin = tmp / "work" / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "referee").symlink_to(referee)
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env.update(
        HOME=str(tmp / "home"),
        XDG_DATA_HOME=str(tmp / "data"),
        XDG_CONFIG_HOME=str(tmp / "config"),
        PATH=f"{venv_bin}{os.pathsep}{bindir}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=str(ROOT / "src"),
        NO_COLOR="1",
        COLUMNS="100",
    )
    for name in ("home", "data", "config"):
        (tmp / name).mkdir()
    return env


def run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``command`` in bash, in its own process group: on a timeout the whole group is
    killed (a server a command left behind included), so the test never hangs."""
    with subprocess.Popen(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    ) as proc:
        try:
            out, err = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            err += f"\n(killed after {TIMEOUT} s)"
            return subprocess.CompletedProcess(command, -9, out, err)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # anything it started in the background
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def test_the_conventions_are_read() -> None:
    """The parser itself, on a document written for it."""
    doc = "\n".join(
        [
            "<!-- docs: skip starts a server -->",
            "```sh",
            "referee serve",
            "```",
            "<!-- docs: fails -->",
            "```console",
            "$ referee roll 3d \\",
            "    --seed 1",
            "error: ... 3d ...",
            "```",
            "```bash",
            "# a comment",
            "referee odds 2d6   # trailing",
            "```",
            "```python",
            "print(1)",
            "```",
        ]
    )
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.md"
        path.write_text(doc)
        found = blocks(path)
    assert [(b.lang, b.mark, b.reason) for b in found] == [
        ("sh", "skip", "starts a server"),
        ("console", "fails", ""),
        ("bash", "", ""),
    ]
    assert found[1].commands[0].text == "referee roll 3d \\\n    --seed 1"
    assert found[1].commands[0].shown == ["error: ... 3d ..."]
    assert [c.text for c in found[2].commands] == ["referee odds 2d6   # trailing"]
    assert missing_output(["a", "...", "c ... e  # note"], "a\nb\nc d e\n") is None
    assert missing_output(["c", "a"], "a\nb\nc\n") == "a"
    assert missing_output(['{"a": [1, 2]}'], '{\n  "a": [\n    1,\n    2\n  ]\n}\n') is None
    assert FAILS.search("referee mongrel validate x.json   # fails: every broken rule")
    assert not FAILS.search("referee odds 2d6   # never fails")


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_shell_examples_run_as_written(path: Path, tmp_path: Path) -> None:
    """Each command of the document's shell blocks exits as marked and prints what is shown."""
    env = environment(tmp_path)
    work = tmp_path / "work"
    problems: list[str] = []
    for block in blocks(path):
        if block.mark == "skip":
            assert block.reason, f"{path.name}:{block.line}: a skipped block must say why"
            continue
        for cmd in block.commands:
            where = f"{path.relative_to(ROOT)}:{cmd.line}"
            unsafe = unsafe_programs(cmd.text)
            if unsafe:
                problems.append(
                    f"{where}: {unsafe[0]!r} is not run by this test: mark the block "
                    "<!-- docs: skip REASON --> (or add the program to RUNS if it is safe)"
                )
                continue
            done = run(cmd.text, work, env)
            said = (done.stdout + done.stderr).strip()[-1500:]
            if block.mark == "fails" or FAILS.search(cmd.text):
                if done.returncode == 0:
                    problems.append(f"{where}: marked to fail, exited 0: {cmd.text}\n{said}")
            elif done.returncode != 0:
                problems.append(f"{where}: exit {done.returncode}: {cmd.text}\n{said}")
                continue
            gap = missing_output(cmd.shown, done.stdout + done.stderr)
            if gap is not None:
                problems.append(f"{where}: {cmd.text}\n  shown, not printed: {gap}\n{said}")
    assert not problems, "\n\n".join(problems)


def test_a_chain_or_an_installer_is_not_run() -> None:
    """Each program of a chain counts, and a Python that installs is not run (a docs line
    once created /opt/referee by starting with ``python3 -m venv``)."""
    assert unsafe_programs("referee odds 2d6 | head -1") == []
    assert unsafe_programs("python3 -m venv /opt/x && /opt/x/bin/pip install y") == [
        "python3 -m venv",
        "/opt/x/bin/pip",
    ]
    assert unsafe_programs("echo hi; sudo rm -rf /") == ["sudo"]
    assert unsafe_programs("referee mongrel validate vooruk   # one a line; exit 1") == []
