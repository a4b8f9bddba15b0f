"""Bad input raises `ballast.CaseError` (a ValueError) with the command line's message: the
reference is `ballast run`'s own `error: ...` line for the same file. No panic reaches Python.
"""

import pytest

import ballast
from conftest import CASES, cli_run, variant

BAD = [
    # (what is wrong, pattern, replacement)
    ("negative radius", r"^radius = 0\.01$", "radius = -0.01"),
    ("unknown key", r"^\[run\]$", "[run]\nstpes = 10"),
    ("unknown material", r'^material = "glass"$', 'material = "steel"'),
    ("not TOML", r"^\[run\]$", "[run"),
]


@pytest.mark.parametrize("what,pattern,repl", BAD, ids=[b[0] for b in BAD])
def test_case_error_carries_the_command_lines_message(tmp_path, what, pattern, repl):
    bad = variant(CASES / "free_fall.toml", tmp_path / "bad.toml", [(pattern, repl)])
    r = cli_run(bad, tmp_path / "out")
    assert r.returncode == 2
    line = [l for l in r.stderr.splitlines() if l.startswith("error: ")][0]
    with pytest.raises(ballast.CaseError) as e:
        ballast.Simulation.from_file(bad)
    assert str(e.value) == line[len("error: "):]
    assert isinstance(e.value, ValueError)


def test_missing_file():
    with pytest.raises(ballast.CaseError, match="no_such.toml: cannot read"):
        ballast.Simulation.from_file("no_such.toml")


def test_from_toml_names_the_inline_case(tmp_path):
    text = (CASES / "free_fall.toml").read_text().replace("radius = 0.01", "radius = -0.01")
    with pytest.raises(ballast.CaseError, match=r"inline\.toml: ball\[1\]\.radius"):
        ballast.Simulation.from_toml(text, base_dir=tmp_path)
    good = ballast.Simulation.from_toml((CASES / "free_fall.toml").read_text())
    good.run()
    assert good.ended and good.name == "free_fall"


def test_resume_refuses_another_cases_checkpoint(tmp_path):
    sim = ballast.Simulation.from_file(CASES / "free_fall.toml")
    sim.step(10)
    sim.checkpoint(tmp_path / "a.ckpt")
    r = cli_run(CASES / "collision_linear.toml", tmp_path / "out", "--resume", str(tmp_path / "a.ckpt"))
    assert r.returncode == 2
    line = [l for l in r.stderr.splitlines() if l.startswith("error: ")][0]
    with pytest.raises(ballast.CaseError) as e:
        ballast.Simulation.resume(CASES / "collision_linear.toml", tmp_path / "a.ckpt")
    assert str(e.value) == line[len("error: "):]


def test_write_before_the_end_is_refused(tmp_path):
    sim = ballast.Simulation.from_file(CASES / "free_fall.toml")
    sim.step(10)
    with pytest.raises(RuntimeError, match="not at its end"):
        sim.write(tmp_path)
    sim.stop()
    assert sim.ended and "stopped from Python" in sim.error
    assert sim.write(tmp_path) is False  # the checks fail, saying the run stopped
    assert all("the run stopped" in c["message"] for c in sim.checks())


def test_wall_errors():
    sim = ballast.Simulation.from_file(CASES / "walls" / "rebound_box_coarse.toml")
    with pytest.raises(KeyError, match="no such wall; walls: box"):
        sim.wall_force("lid")
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        sim.set_wall_velocity("box", [1.0, 2.0])
