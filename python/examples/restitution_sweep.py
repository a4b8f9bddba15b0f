"""A parameter sweep: the restitution coefficient of a head-on collision of two glass balls,
set through the normal dashpot of the linear contact model, measured from the rebound, and
plotted against the value asked for (a matplotlib figure written to a file).

For a linear spring with a dashpot of z times critical damping, the coefficient of
restitution is e = exp(-pi z / sqrt(1 - z^2)) (a damped oscillator's half period), so the
damping ratio that gives e is z = -ln(e) / sqrt(pi^2 + ln(e)^2). Each run sets that z, runs
the collision and measures e = (v2 - v1)_after / (v1 - v2)_before from the balls' velocities.

    python examples/restitution_sweep.py [--points 9] [--figure restitution.png]
"""

import argparse
import math

import numpy as np

import ballast

CASE = """
name = "restitution_sweep"

[run]
duration = 2.5e-3

[timestep]
mode = "fixed"
dt = 1e-7

[material.glass]
density = 2500.0

[[contact]]
between = ["glass", "glass"]
model = "linear"
kn = 1e5
ks = 1e5
friction = 0.5
damp_n = {damp_n!r}

[[ball]]
id = 1
pos = [-0.0105, 0.0, 0.0]
radius = 0.01
material = "glass"
vel = [0.5, 0.0, 0.0]

[[ball]]
id = 2
pos = [0.0105, 0.0, 0.0]
radius = 0.01
material = "glass"
vel = [-0.5, 0.0, 0.0]

[output]
series = ["ball/1/vel", "ball/2/vel"]
"""


def damping_for(e):
    """The damping ratio of the linear dashpot that gives restitution e."""
    ln = math.log(e)
    return -ln / math.sqrt(math.pi**2 + ln**2)


def measured_restitution(e):
    """Runs the collision with the dashpot for restitution e; returns the measured value."""
    sim = ballast.Simulation.from_toml(CASE.format(damp_n=damping_for(e)))
    v = sim.velocities()
    approach = v[0, 0] - v[1, 0]
    sim.run()
    v = sim.velocities()
    return (v[1, 0] - v[0, 0]) / approach


def sweep(points):
    asked = np.linspace(0.1, 0.9, points)
    return asked, np.array([measured_restitution(e) for e in asked])


def plot(asked, got, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.5, 4))
    ax.plot([0, 1], [0, 1], color="0.7", label="e measured = e asked")
    ax.plot(asked, got, "o", label="ballast, linear + dashpot")
    ax.set_xlabel("restitution asked")
    ax.set_ylabel("restitution measured")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--points", type=int, default=9)
    p.add_argument("--figure", default="restitution.png")
    a = p.parse_args(argv)
    asked, got = sweep(a.points)
    for e, g in zip(asked, got):
        print(f"e asked {e:.3f}  measured {g:.6f}")
    plot(asked, got, a.figure)
    print(f"figure: {a.figure}")
    return asked, got


if __name__ == "__main__":
    main()
