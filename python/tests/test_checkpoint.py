"""checkpoint() from Python writes the bytes `ballast run` writes at the same cycle, and a run
resumed from it (in Python or with `ballast run --resume`) ends in the straight run's bytes.
Reference: the command line's straight run of the same case file, with its checkpoints.
"""

import pytest

import ballast
from conftest import CASES, cli_run, variant

HEAP = CASES / "heap" / "heap_mu_r_20.toml"
SHORT = [
    (r"^duration = 1\.2$", "duration = 0.1"),
    (r"^count = 700$", "count = 120"),
    (r"^\[output\]$", "[output]\ncheckpoint_every = 1000"),
]


def test_checkpoint_resumes_to_the_straight_runs_bytes(tmp_path):
    case = variant(HEAP, tmp_path / "heap.toml", SHORT)
    r = cli_run(case, tmp_path / "straight")
    assert r.returncode in (0, 1), r.stderr
    straight = tmp_path / "straight"

    sim = ballast.Simulation.from_file(case)
    assert sim.step(1000) == 1000
    sim.checkpoint(tmp_path / "py.ckpt")
    ours = (tmp_path / "py.ckpt").read_bytes()
    assert ours == (straight / "checkpoints" / "cycle_1000.ckpt").read_bytes()
    # the run goes on after a checkpoint as if none had been taken
    sim.run()
    sim.write(tmp_path / "on")
    assert (tmp_path / "on" / "series.csv").read_bytes() == (straight / "series.csv").read_bytes()

    resumed = ballast.Simulation.resume(case, tmp_path / "py.ckpt")
    assert resumed.cycle == 1000
    resumed.run()
    resumed.write(tmp_path / "resumed")
    assert (tmp_path / "resumed" / "series.csv").read_bytes() == (straight / "series.csv").read_bytes()

    # and the command line resumes from Python's checkpoint to the same bytes
    r = cli_run(case, tmp_path / "cli_resumed", "--resume", str(tmp_path / "py.ckpt"))
    assert r.returncode in (0, 1), r.stderr
    assert (tmp_path / "cli_resumed" / "series.csv").read_bytes() == (straight / "series.csv").read_bytes()


def test_checkpoint_after_the_end_is_refused(tmp_path):
    sim = ballast.Simulation.from_file(CASES / "free_fall.toml")
    sim.run()
    try:
        sim.checkpoint(tmp_path / "late.ckpt")
    except RuntimeError as e:
        assert "the run ended at cycle 5000" in str(e)
    else:
        raise AssertionError("a checkpoint after the end was written")


def test_a_stage_from_a_checkpoint_is_the_command_lines(tmp_path):
    # stage 1: the head-on collision stopped half-way, its last checkpoint; stage 2: the same
    # scene without its balls (they come from the checkpoint) run on from there, by the
    # command line (`--from`) and from Python: the same bytes
    import re

    first = variant(CASES / "collision_linear.toml", tmp_path / "first.toml",
                    [(r"^duration = 2\.5e-3$", "duration = 1.0e-3"),
                     (r"^\[output\]$", "[output]\ncheckpoint_every = 100000")])
    r = cli_run(first, tmp_path / "first")
    assert r.returncode in (0, 1), r.stderr
    ckpt = sorted((tmp_path / "first" / "checkpoints").iterdir())[-1]
    text = (CASES / "collision_linear.toml").read_text()
    text = re.sub(r"\[\[ball\]\]\n(?:[^\n]+\n)*", "", text)
    text = text[: text.index("[[check]]")]
    nxt = tmp_path / "next.toml"
    nxt.write_text(text)
    r = cli_run(nxt, tmp_path / "cli", "--from", str(ckpt))
    assert r.returncode in (0, 1), r.stderr
    sim = ballast.Simulation.from_stage(nxt, ckpt)
    start = int(ckpt.stem.split("_")[1])
    assert sim.cycle == start and len(sim.ids()) == 2
    sim.run()
    assert sim.cycle > start
    sim.write(tmp_path / "py")
    assert (tmp_path / "cli" / "series.csv").read_bytes() == (tmp_path / "py" / "series.csv").read_bytes()
    # a checkpoint that is not one is refused as the command line refuses it
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"not a checkpoint")
    r = cli_run(nxt, tmp_path / "cli_bad", "--from", str(bad))
    line = [l for l in r.stderr.splitlines() if l.startswith("error: ")][0]
    with pytest.raises(ballast.CaseError) as e:
        ballast.Simulation.from_stage(nxt, bad)
    assert str(e.value) == line[len("error: "):]
