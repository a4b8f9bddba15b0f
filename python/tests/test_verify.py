"""ballast.verify runs cases as `ballast verify` does and reports each as (name, passed,
checks passed, checks); the case's own summary.json written beside is the reference."""

import json

import pytest

import ballast
from conftest import CASES, variant


def test_verify_reports_each_case(tmp_path):
    bad = variant(CASES / "free_fall.toml", tmp_path / "bad.toml", [(r"^radius = 0\.01$", "radius = -0.01")])
    rows = ballast.verify([CASES / "free_fall.toml", bad], out=tmp_path / "reports")
    assert rows[0] == ("free_fall", True, 5, 5)
    assert rows[1] == ("bad", False, 0, 0)
    s = json.loads((tmp_path / "reports" / "cases" / "free_fall" / "summary.json").read_text())
    assert s["passed"] and len(s["checks"]) == 5


def test_threads_are_checked():
    with pytest.raises(ValueError, match="threads: 0: from 1 to 1024"):
        ballast.Simulation.from_file(CASES / "free_fall.toml", threads=0)
    sim = ballast.Simulation.from_file(CASES / "free_fall.toml", threads=1)
    sim.run()
    assert sim.ended
