"""The state of a run as numpy arrays (SPEC 6.3): shapes, dtypes, ball-id order; setting
positions and velocities from Python equals the same change written in the case file (the
command line's run of that file is the reference, compared byte for byte); contacts as arrays
whose forces balance each ball (Newton's third law) and match the model's own series.
"""

import numpy as np
import pytest

import ballast
from conftest import CASES, cli_run, variant

COLLISION = CASES / "collision_linear.toml"
SETTLE = CASES / "settle_on_fixed_layer.toml"


def test_arrays_shapes_and_dtypes():
    sim = ballast.Simulation.from_file(SETTLE)
    sim.step(4000)
    n = 600
    for name in ("positions", "velocities", "spins"):
        a = getattr(sim, name)()
        assert a.shape == (n, 3) and a.dtype == np.float64, name
    for name in ("radii",):
        a = getattr(sim, name)()
        assert a.shape == (n,) and a.dtype == np.float64, name
    for name in ("ids", "materials", "coordination"):
        a = getattr(sim, name)()
        assert a.shape == (n,) and a.dtype == np.int64, name
    ids = sim.ids()
    assert np.all(np.diff(ids) > 0), "ball-id order"
    assert sim.material_names() == ["glass"]
    c = sim.contacts()
    m = len(c["id1"])
    assert m > 0
    assert {k: v.shape for k, v in c.items()} == {
        "id1": (m,), "id2": (m,), "force": (m, 3), "point": (m, 3), "normal": (m, 3),
        "overlap": (m,), "normal_force": (m,), "tangential_force": (m, 3),
    }
    assert c["id1"].dtype == np.int64 and c["force"].dtype == np.float64
    assert sim.cycle == 4000 and sim.time == pytest.approx(4000 * 5e-6)
    assert sim.dt == 5e-6


def test_positions_follow_ids_after_renumbering():
    # the balls of a case whose detection renumbers them (sort_every): positions() must still
    # be in id order; the lattice's first ball (id 1) stays fixed where it was generated
    sim = ballast.Simulation.from_file(SETTLE)
    p0 = sim.positions()
    sim.step(300)
    p1 = sim.positions()
    fixed = sim.velocities()[:400]
    assert np.array_equal(p0[:400], p1[:400])  # the fixed floor (ids 1..400) never moves
    assert np.all(fixed == 0.0)
    assert not np.array_equal(p0[400:], p1[400:])


def test_contact_forces_balance_each_ball():
    # the sum over a ball's contacts of their forces on it, plus gravity, is m a; at the
    # end of the settle case (at rest) each free ball's contact forces carry its weight on
    # average: the floor's total is the free balls' weight (the case's own check)
    sim = ballast.Simulation.from_file(variant(SETTLE, "/tmp/settle_short.toml", [(r"^duration = 0\.7$", "duration = 0.05")]))
    sim.run()
    c = sim.contacts()
    ids = sim.ids()
    index = {int(i): k for k, i in enumerate(ids)}
    total = np.zeros((len(ids), 3))
    for a, b, f in zip(c["id1"], c["id2"], c["force"]):
        total[index[int(b)]] += f
        total[index[int(a)]] -= f
    # Newton's third law: every pair's forces cancel, so the sum over all balls is zero
    assert np.allclose(total.sum(axis=0), 0.0, atol=1e-12)
    # the series "fixed/force" is the resultant on the fixed balls: the same number from the arrays
    fixed_force = total[:400].sum(axis=0)
    assert fixed_force[2] == pytest.approx(sim.series("fixed/force.z")[-1], rel=1e-9)
    # normal and tangential parts recompose the force; normal force is force . normal
    n = c["normal"]
    assert np.allclose(np.linalg.norm(n, axis=1), 1.0)
    assert np.allclose(c["normal_force"], np.einsum("ij,ij->i", c["force"], n))
    assert np.allclose(c["tangential_force"] + c["normal_force"][:, None] * n, c["force"])
    assert np.all(np.abs(np.einsum("ij,ij->i", c["tangential_force"], n)) < 1e-12)


def test_set_velocities_equals_the_case_file(tmp_path):
    changed = variant(COLLISION, tmp_path / "changed.toml", [(r"^vel = \[0\.5, 0\.0, 0\.0\]$", "vel = [0.4, 0.01, -0.02]")])
    same = variant(COLLISION, tmp_path / "changed_py.toml", [])
    r = cli_run(changed, tmp_path / "cli")
    assert r.returncode in (0, 1), r.stderr
    sim = ballast.Simulation.from_file(same)
    v = sim.velocities()
    assert np.array_equal(v, [[0.5, 0.0, 0.0], [-0.5, 0.0, 0.0]])
    v[0] = [0.4, 0.01, -0.02]
    sim.set_velocities(v)
    assert np.array_equal(sim.velocities(), v)
    sim.run()
    sim.write(tmp_path / "py")
    assert (tmp_path / "cli" / "series.csv").read_bytes() == (tmp_path / "py" / "series.csv").read_bytes()


def test_set_positions_equals_the_case_file(tmp_path):
    changed = variant(COLLISION, tmp_path / "moved.toml", [(r"^pos = \[0\.0105, 0\.0, 0\.0\]$", "pos = [0.0107, 0.001, 0.0]")])
    same = variant(COLLISION, tmp_path / "moved_py.toml", [])
    r = cli_run(changed, tmp_path / "cli")
    assert r.returncode in (0, 1), r.stderr
    sim = ballast.Simulation.from_file(same)
    p = sim.positions()
    p[1] = [0.0107, 0.001, 0.0]
    sim.set_positions(p)
    sim.run()
    sim.write(tmp_path / "py")
    assert (tmp_path / "cli" / "series.csv").read_bytes() == (tmp_path / "py" / "series.csv").read_bytes()


def test_set_velocities_during_the_run_changes_the_motion():
    # mid-run, the velocity given is the one velocities() reads back at the same time
    sim = ballast.Simulation.from_file(CASES / "free_fall.toml")
    sim.step(100)
    v = sim.velocities()
    v[0] = [0.0, 0.0, 1.0]
    sim.set_velocities(v)
    assert np.allclose(sim.velocities(), v, rtol=0, atol=1e-15)
    z0 = sim.positions()[0, 2]
    sim.step(100)
    dt = 1e-4
    # z(t) = z0 + v t - g t^2 / 2 after the change (leapfrog: exact for constant gravity)
    t = 100 * dt
    assert sim.positions()[0, 2] == pytest.approx(z0 + 1.0 * t - 0.5 * 9.81 * t * t, abs=1e-12)


def test_set_arrays_refuse_wrong_shapes():
    sim = ballast.Simulation.from_file(COLLISION)
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        sim.set_velocities(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="3 rows given, the model has 2 balls"):
        sim.set_positions(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="row 1 is not finite"):
        sim.set_positions(np.array([[0.0, 0, 0], [np.nan, 0, 0]]))


def test_series_by_name():
    sim = ballast.Simulation.from_file(CASES / "free_fall.toml")
    assert "ball/1/pos.z" in sim.series_names()
    sim.run()
    t = sim.series("t")
    z = sim.series("ball/1/pos.z")
    assert t.shape == z.shape == (101,)
    # the case's parabola (its own analytic check, 1e-12 m)
    assert np.allclose(z, 1.0 + 2.0 * t - 4.905 * t * t, rtol=0, atol=1e-12)
    with pytest.raises(KeyError, match="not a recorded series"):
        sim.series("ball/1/spin.z")
    checks = sim.checks()
    assert [c["kind"] for c in checks] == ["analytic", "analytic", "final_value", "energy_balance", "golden"]
    assert all(c["passed"] for c in checks)


def test_progress_is_off_by_default(capfd):
    sim = ballast.Simulation.from_file(CASES / "free_fall.toml")
    sim.run()
    out, err = capfd.readouterr()
    assert out == "" and err == ""
