"""Ctrl-C while the engine steps raises KeyboardInterrupt at the end of a cycle and keeps the
run: stepping on from there ends in the bytes of the run straight through (the command line's
run of the same file is the reference).
"""

import os
import signal
import threading

import pytest

import ballast
from conftest import CASES, cli_run, variant


def test_ctrl_c_keeps_the_run(tmp_path):
    case = variant(CASES / "heap" / "heap_mu_r_20.toml", tmp_path / "heap.toml",
                   [(r"^duration = 1\.2$", "duration = 0.6"), (r"^count = 700$", "count = 300")])
    r = cli_run(case, tmp_path / "cli")
    assert r.returncode in (0, 1), r.stderr
    sim = ballast.Simulation.from_file(case)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sim.run()
    timer.join()
    stopped_at = sim.cycle
    assert 0 < stopped_at < 15000 and not sim.ended
    sim.run()
    assert sim.ended and sim.cycle == 15000
    sim.write(tmp_path / "py")
    assert (tmp_path / "cli" / "series.csv").read_bytes() == (tmp_path / "py" / "series.csv").read_bytes()
