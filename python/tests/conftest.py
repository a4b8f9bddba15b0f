"""Shared helpers of the pytest suite of the module `ballast` (python/tests).

The references come from outside the module: the command line `ballast run` (the release
binary built by `cargo build --release`, or $BALLAST_BIN) and the case files of cases/.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "cases"


def ballast_bin():
    """The command line's binary: $BALLAST_BIN, else the workspace's release build."""
    env = os.environ.get("BALLAST_BIN")
    b = Path(env) if env else ROOT / "target" / "release" / "ballast"
    if not b.is_file():
        pytest.fail(f"{b}: build it first (cargo build --release), or set BALLAST_BIN")
    return b


def cli_run(case, out, *extra):
    """`ballast run CASE --out OUT` (one thread: any count gives the same bits); returns the
    completed process."""
    return subprocess.run(
        [str(ballast_bin()), "run", str(case), "--out", str(out), "--threads", "1", *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def variant(src, dest, replacements=(), drop_golden=True):
    """A copy of the case file `src` at `dest` with each (pattern, replacement) regex applied
    once (each must match) and its golden check removed (a golden is kept for the case as
    it is in cases/, not for a shortened copy). Returns `dest`."""
    text = Path(src).read_text()
    for pattern, repl in replacements:
        text, n = re.subn(pattern, repl, text, count=1, flags=re.M)
        assert n == 1, f"{pattern!r} not found in {src}"
    if drop_golden:
        text = re.sub(r'\[\[check\]\]\nkind = "golden"[^\[]*', "", text)
    Path(dest).write_text(text)
    return Path(dest)


def summary_without_timing(path):
    """summary.json without the fields that change from run to run (wall-clock time) or name
    where the case file was found."""
    d = json.loads(Path(path).read_text())
    for k in ("wall_seconds", "file"):
        d.pop(k, None)
    for c in d.get("checks", []):
        c.pop("message", None) if c.get("kind") == "golden" else None
    return d


@pytest.fixture
def repo_root():
    return ROOT
