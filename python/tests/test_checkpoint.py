"""checkpoint() from Python writes the bytes `ballast run` writes at the same cycle, and a run
resumed from it (in Python or with `ballast run --resume`) ends in the straight run's bytes.
Reference: the command line's straight run of the same case file, with its checkpoints.
"""

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
