"""Calibration: the EPSD rolling-resistance coefficient mu_r that gives a heap a target angle
of repose, found by bisection.

The scene is the heap of cases/heap (Ai et al. 2011): glass beads poured from a stream onto a
square plate of half-width b = 25 mm, beads rolling off removed below it; the angle of repose
is atan(H / b), H the height of the heap's top (the series balls/top) once it rests. The angle
rises with mu_r (the report's Rolling page), so bisection on mu_r in [lo, hi] closes on the
target: each step runs one heap.

    python examples/calibrate_rolling.py [--target 20] [--beads 700] [--iterations 6]
"""

import argparse
import math
from pathlib import Path

import ballast

ROOT = Path(__file__).resolve().parents[2]
HEAP = ROOT / "cases" / "heap" / "heap_mu_r_20.toml"
HALF_WIDTH = 0.025  # b, m: the plate is 50 mm across


def heap_case(mu_r, beads, duration):
    """The heap case's text with rolling coefficient mu_r, `beads` beads and `duration` s."""
    text = HEAP.read_text()
    out = []
    for line in text.splitlines():
        if line.startswith("rolling = "):
            line = f'rolling = {{ kind = "epsd", coefficient = {mu_r!r} }}'
        elif line.startswith("count = 700"):
            line = f"count = {beads}"
        elif line.startswith("duration = "):
            line = f"duration = {duration!r}"
        elif line.startswith('name = "heap_mu_r_20"'):
            line = 'name = "heap_calibration"'
        out.append(line)
    # (the golden check belongs to the case in cases/, not to these variants)
    text = "\n".join(out)
    return text[: text.index('[[check]]\nkind = "golden"')] if 'kind = "golden"' in text else text


def angle_of_repose(mu_r, beads, duration):
    """The heap's angle of repose, degrees, for rolling coefficient mu_r."""
    sim = ballast.Simulation.from_toml(heap_case(mu_r, beads, duration), base_dir=HEAP.parent)
    sim.run()
    top = sim.series("balls/top")[-1]
    return math.degrees(math.atan(top / HALF_WIDTH))


def calibrate(target, beads=700, duration=1.2, lo=0.0, hi=0.4, iterations=6, log=print):
    """Bisection on mu_r in [lo, hi] for the angle `target` (degrees); returns (mu_r, angle)."""
    a_lo = angle_of_repose(lo, beads, duration)
    a_hi = angle_of_repose(hi, beads, duration)
    log(f"mu_r = {lo:.4f}: {a_lo:.2f} deg;  mu_r = {hi:.4f}: {a_hi:.2f} deg")
    if not a_lo <= target <= a_hi:
        raise ValueError(f"target {target} deg is not between {a_lo:.2f} and {a_hi:.2f} deg")
    best = min(((lo, a_lo), (hi, a_hi)), key=lambda p: abs(p[1] - target))
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        a = angle_of_repose(mid, beads, duration)
        log(f"mu_r = {mid:.4f}: {a:.2f} deg")
        if abs(a - target) < abs(best[1] - target):
            best = (mid, a)
        if a < target:
            lo = mid
        else:
            hi = mid
    return best


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", type=float, default=20.0, help="angle of repose, degrees")
    p.add_argument("--beads", type=int, default=700)
    p.add_argument("--duration", type=float, default=1.2, help="s, until the heap rests")
    p.add_argument("--iterations", type=int, default=6)
    a = p.parse_args(argv)
    mu_r, angle = calibrate(a.target, a.beads, a.duration, iterations=a.iterations)
    print(f"calibrated: mu_r = {mu_r:.4f} gives an angle of repose of {angle:.2f} deg (target {a.target})")
    return mu_r, angle


if __name__ == "__main__":
    main()
