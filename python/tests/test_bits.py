"""A case stepped from Python gives the same bits as `ballast run` (SPEC 6.3).

Reference: the command line's own output files for the same case file (series.csv, the VTK
files, the checkpoints, summary.json less its wall-clock time). A module that stepped the
model in another order, missed a record, primed twice or recorded the first row after a cycle
would change a digit of series.csv; the comparison is of bytes, so any change fails.
"""

import filecmp
from pathlib import Path

import pytest

import ballast
from conftest import CASES, cli_run, summary_without_timing, variant

# (a heap: walls, insertion and an outlet, the linear model on contact frames with EPSD
# rolling resistance; an insertion into a box with the history model; a ball bouncing in a
# box of facets; a free fall)
SCENES = {
    "heap": (
        CASES / "heap" / "heap_mu_r_20.toml",
        [(r"^duration = 1\.2$", "duration = 0.3"), (r"^count = 700$", "count = 150"),
         (r"^\[output\]$", "[output]\nvtk_every = 1000\ncheckpoint_every = 1500")],
    ),
    "insert": (
        CASES / "experiments" / "insert_lognormal.toml",
        [(r"^duration = 0\.25$", "duration = 0.2"), (r"^count = 2000$", "count = 200")],
    ),
    "rebound": (CASES / "walls" / "rebound_box_coarse.toml", [(r"^duration = 0\.3$", "duration = 0.05")]),
    "free_fall": (CASES / "free_fall.toml", []),
}


def files_under(d):
    return sorted(p.relative_to(d) for p in Path(d).rglob("*") if p.is_file())


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_same_bits_as_ballast_run(tmp_path, scene):
    src, reps = SCENES[scene]
    case = variant(src, tmp_path / f"{scene}.toml", reps)
    cli = tmp_path / "cli"
    py = tmp_path / "py"
    r = cli_run(case, cli)
    assert r.returncode in (0, 1), r.stderr
    sim = ballast.Simulation.from_file(case, out=py)
    # (in uneven steps: the chunks must not matter)
    sim.step(7)
    sim.step(1000)
    sim.run()
    assert sim.ended
    sim.write(py)
    assert (cli / "series.csv").read_bytes() == (py / "series.csv").read_bytes()
    assert summary_without_timing(cli / "summary.json") == summary_without_timing(py / "summary.json")
    # every VTK file and checkpoint, byte for byte
    cli_files = [p for p in files_under(cli) if p.parts[0] in ("vtk", "checkpoints")]
    py_files = [p for p in files_under(py) if p.parts[0] in ("vtk", "checkpoints")]
    assert cli_files == py_files
    for p in cli_files:
        assert filecmp.cmp(cli / p, py / p, shallow=False), p
    if scene == "heap":
        assert any(p.parts[0] == "vtk" for p in cli_files)
        assert any(p.parts[0] == "checkpoints" for p in cli_files)
