"""A servo written in Python: a lid pressed on a bed of beads, its speed set from the load the
beads put on it so that it holds a target stress.

The scene is the oedometer of cases/experiments (glass beads settled in a box of 17.5 mm
under a lid of 17.4 x 17.4 mm) with the lid's own servo taken out: every few cycles Python
reads the beads' force on the lid, wall_force("lid"), and sets its velocity,

    v = -gain (target - load),  |v| <= max_speed   (downwards while the load is short),

the classic servo of PFC's wall control; the case's engine servo does the same each cycle.

    python examples/servo_lid.py [--stress 2000] [--beads 500] [--every 10]

(the settle-box scene fills the box's 17.5 mm for 423 to 562 beads: its lattice has 7 sites a
row then)
"""

import argparse
import re
from pathlib import Path

import numpy as np

import ballast

ROOT = Path(__file__).resolve().parents[2]
OEDOMETER = ROOT / "cases" / "experiments" / "oedometer_servo.toml"
LID_AREA = 0.0174**2  # m^2


def oedometer_case(beads, duration):
    """The oedometer's text with its lid fixed (Python moves it), `beads` beads, no checks."""
    text = OEDOMETER.read_text()
    text = re.sub(r"^motion = \{ kind = \"servo\".*$", "", text, flags=re.M)
    text = re.sub(r"^count = 500$", f"count = {beads}", text, flags=re.M)
    text = re.sub(r"^duration = .*$", f"duration = {duration!r}", text, flags=re.M)
    text = re.sub(r'^name = "oedometer_servo"$', 'name = "servo_lid"', text, flags=re.M)
    return text[: text.index("[[check]]")]


def hold(stress=2000.0, beads=500, duration=0.35, every=10, gain=0.25, max_speed=0.15):
    """Runs the oedometer with the Python servo; returns (times, loads) sampled every
    `every` cycles, N."""
    sim = ballast.Simulation.from_toml(oedometer_case(beads, duration), base_dir=OEDOMETER.parent)
    target = stress * LID_AREA
    times, loads = [], []
    while not sim.ended:
        load = sim.wall_force("lid")[2]  # the beads push the lid up (+z)
        v = float(np.clip(gain * (target - load), -max_speed, max_speed))
        sim.set_wall_velocity("lid", [0.0, 0.0, -v])
        sim.step(every)
        times.append(sim.time)
        loads.append(sim.wall_force("lid")[2])
    return np.array(times), np.array(loads), target


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stress", type=float, default=2000.0, help="Pa")
    p.add_argument("--beads", type=int, default=500)
    p.add_argument("--duration", type=float, default=0.35, help="s")
    p.add_argument("--every", type=int, default=10, help="cycles between two servo updates")
    a = p.parse_args(argv)
    t, load, target = hold(a.stress, a.beads, a.duration, a.every)
    late = load[t >= 0.7 * t[-1]]
    print(f"target {target:.5f} N; over the last 30 % of the run the load is "
          f"{late.mean():.5f} N (from {late.min():.5f} to {late.max():.5f})")
    return t, load, target


if __name__ == "__main__":
    main()
