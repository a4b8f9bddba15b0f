"""Writes the periodic-cell cases of this folder: python3 make_cases.py (from this folder)."""
import math
import random

HEADER = "# Written by make_cases.py: edit the script, not this file.\n"


def vec(v):
    return "[" + ", ".join(repr(float(x)) for x in v) + "]"


def pair(name, dim, corner, description, other=None):
    """Two balls colliding obliquely with the Hertz model (friction, restitution, spin), their
    contact point at the middle of the cell or (corner) on a corner of it, across every face."""
    L = 0.1
    r = 0.01
    u = [1.0, 1.0, 1.0] if dim == 3 else [1.0, 1.0]
    n = math.sqrt(sum(x * x for x in u))
    u = [x / n for x in u]
    half = 0.0103
    mid = [0.0] * dim if corner else [L / 2] * dim
    p1 = [m - half * x for m, x in zip(mid, u)]
    p2 = [m + half * x for m, x in zip(mid, u)]
    # (inside the cell: the first ball of the corner pair sits below the corner's faces)
    p1 = [x + L if x < 0 else x for x in p1]
    v1 = [0.5 * x for x in u]
    v1[1] += 0.1
    v2 = [-0.5 * x for x in u]
    s = HEADER + f'name = "{name}"\ndescription = """{description}"""\n'
    s += f"dim = {dim}\n\n[run]\nduration = 0.008\ngravity = {vec([0.0] * dim)}\n\n"
    s += '[timestep]\nmode = "fixed"\ndt = 1e-6\n\n'
    s += f"[domain]\nmin = {vec([0.0] * dim)}\nmax = {vec([L] * dim)}\n"
    s += "periodic = [" + ", ".join(f'"{a}"' for a in "xyz"[:dim]) + "]\n\n"
    s += "[material.glass]\ndensity = 2500.0\nyoung = 1.0e7\npoisson = 0.25\n\n"
    model = "hertz" if dim == 3 else "linear"
    s += f'[[contact]]\nbetween = ["glass", "glass"]\nmodel = "{model}"\n'
    if dim == 3:
        s += "restitution = 0.8\nfriction = 0.3\n\n"
    else:
        s += "kn = 1.0e5\nks = 5.0e4\nfriction = 0.3\ndamp_n = 0.1\ndamp_s = 0.1\n\n"
    spin2 = "[0.0, 0.0, 20.0]" if dim == 3 else "20.0"
    for k, (p, v, w) in enumerate([(p1, v1, None), (p2, v2, spin2)]):
        s += f'[[ball]]\nid = {k + 1}\npos = {vec(p)}\nradius = {r}\nmaterial = "glass"\nvel = {vec(v)}\n'
        if w:
            s += f"spin = {w}\n"
        s += "\n"
    s += '[output]\nevery = 100\nseries = ["ball/1/vel", "ball/2/vel", "ball/1/spin", "ball/2/spin", "ball/1/pos", "interaction/1/2/normal_force", "energy/kinetic", "energy/dissipated"]\n\n'
    if other:
        axes = "xyz"[:dim]
        spins = ["ball/1/spin.z", "ball/2/spin.z"] if dim == 2 else [f"ball/{b}/spin.{a}" for b in (1, 2) for a in axes]
        for series in [f"ball/{b}/vel.{a}" for b in (1, 2) for a in axes] + spins + ["interaction/1/2/normal_force", "energy/dissipated"]:
            s += f'[[check]]\nkind = "same_series"\nseries = "{series}"\ncase = "{other}"\ntolerance = 1e-9\n\n'
    # (2D: disks of unit thickness weigh 0.79 kg and stay in contact 6 ms: the leapfrog's
    # energy error at dt = 1e-6 s is 1.2e-6 of the scale, in the middle of the cell as well)
    tol = "1e-6" if dim == 3 else "1e-5"
    s += f'[[check]]\nkind = "energy_balance"\ntolerance = {tol}\n\n'
    s += '[[check]]\nkind = "restitution"\nball = 1\nother = 2\n'
    s += "tolerance = 1e-2\n" if dim == 3 else "tolerance = 1e-3\n"
    return s


def crossing():
    """One ball in free flight through the faces of a periodic cell."""
    L, t = 0.1, 0.1
    x0, v = [0.05, 0.05, 0.05], [3.0, -2.0, 1.3]
    end = [(a + b * t) % L for a, b in zip(x0, v)]
    s = HEADER + 'name = "periodic_crossing"\n'
    s += f'description = """One ball (r = 5 mm) flies without gravity at {vec(v)} m/s for {t} s through a periodic cell of side {L} m: it leaves through the faces (three times along x, twice along y, once along z) and re-enters through the opposite ones with the same velocity; its final position is x0 + v t brought back into the cell: {vec([round(e, 12) for e in end])} m."""\n\n'
    s += f'[run]\nduration = {t}\ngravity = [0.0, 0.0, 0.0]\n\n[timestep]\nmode = "fixed"\ndt = 1e-4\n\n'
    s += f'[domain]\nmin = [0.0, 0.0, 0.0]\nmax = {vec([L] * 3)}\nperiodic = ["x", "y", "z"]\n\n'
    s += "[material.glass]\ndensity = 2500.0\n\n"
    s += f'[[ball]]\nid = 1\npos = {vec(x0)}\nradius = 0.005\nmaterial = "glass"\nvel = {vec(v)}\n\n'
    s += '[output]\nevery = 10\nseries = ["ball/1/pos", "ball/1/vel", "balls/momentum", "energy/kinetic"]\n\n'
    for a, e, w in zip("xyz", end, v):
        s += f'[[check]]\nkind = "final_value"\nseries = "ball/1/pos.{a}"\nexpected = {e!r}\nabs_tolerance = 1e-12\nformula = "x0 + v t - L floor((x0 + v t) / L)"\n\n'
        s += f'[[check]]\nkind = "analytic"\nseries = "ball/1/vel.{a}"\nreference = {{ kind = "polynomial", coeffs = [{w!r}] }}\nabs_tolerance = 0.0\n\n'
    return s


def gas():
    """A periodic gas of frictional, damped balls: momentum conserved, energy decays."""
    rng = random.Random(20261201)
    L, n, r, rho = 0.016, 400, 0.0009, 2500.0
    m = rho * 4.0 / 3.0 * math.pi * r ** 3
    sites = [(i, j, k) for k in range(8) for j in range(8) for i in range(8)]
    rng.shuffle(sites)
    balls, p = [], [0.0, 0.0, 0.0]
    for b, (i, j, k) in enumerate(sites[:n]):
        pos = [(c + 0.5) * 0.002 + rng.uniform(-5e-5, 5e-5) for c in (i, j, k)]
        vel = [rng.gauss(0.0, 0.05) for _ in range(3)]
        balls.append((b + 1, pos, vel))
        p = [a + m * w for a, w in zip(p, vel)]
    s = HEADER + 'name = "periodic_gas"\n'
    s += f'description = """{n} glass balls (r = 0.9 mm) with random velocities (0.05 m/s per component) in a periodic cube of side 16 mm (solid fraction 0.3), no walls and no gravity; linear contacts with friction 0.5 and damping. Every force comes with its opposite, so the total momentum sum m v must stay what the balls started with (summed here from the file: {vec(p)} kg m/s) to round-off for 10^5 cycles, across every face, while collisions dissipate the kinetic energy."""\n\n'
    s += '[run]\nsteps = 100000\ngravity = [0.0, 0.0, 0.0]\n\n[timestep]\nmode = "fixed"\ndt = 2e-5\n\n'
    s += f'[domain]\nmin = [0.0, 0.0, 0.0]\nmax = {vec([L] * 3)}\nperiodic = ["x", "y", "z"]\n\n'
    s += "[material.glass]\ndensity = 2500.0\n\n"
    s += '[[contact]]\nbetween = ["glass", "glass"]\nmodel = "linear"\nkn = 100.0\nks = 100.0\nfriction = 0.5\ndamp_n = 0.3\ndamp_s = 0.3\n\n'
    for i, pos, vel in balls:
        s += f'[[ball]]\nid = {i}\npos = {vec(pos)}\nradius = {r}\nmaterial = "glass"\nvel = {vec(vel)}\n\n'
    s += '[output]\nevery = 1000\nseries = ["balls/momentum", "energy/kinetic", "contacts/balls", "domain/solid_fraction"]\n\n'
    for a, pa in zip("xyz", p):
        s += f'[[check]]\nkind = "analytic"\nseries = "balls/momentum.{a}"\nreference = {{ kind = "polynomial", coeffs = [{pa!r}] }}\nabs_tolerance = 1e-12\nformula = "sum of m v over the balls as the file gives them (m = 2500 x 4/3 pi r^3)"\n\n'
    ke0 = sum(0.5 * m * sum(w * w for w in v) for _, _, v in balls)
    s += f'[[check]]\nkind = "final_value"\nseries = "energy/kinetic"\nexpected = 0.0\nabs_tolerance = {0.2 * ke0!r}\nformula = "at most a fifth of the initial kinetic energy {ke0:.4e} J is left"\n\n'
    return s


if __name__ == "__main__":
    mid3 = "The reference of periodic_pair_corner: two balls (r = 1 cm) collide obliquely along (1, 1, 1) in the middle of a periodic cube of side 0.1 m (Hertz, restitution 0.8, friction 0.3; ball 2 spins at 20 rad/s about z)."
    corner3 = "periodic_pair_middle built another way: the same pair, the same velocities, moved so that the contact point is a corner of the cell; the balls meet through the x, y and z faces at once (nearest images), and every velocity, spin and force must be those of the middle of the cell to round-off."
    mid2 = "The reference of periodic_pair_corner_2d: two disks (r = 1 cm) collide obliquely along (1, 1) in the middle of a periodic square of side 0.1 m (linear, friction 0.3, damping 0.1; disk 2 spins at 20 rad/s)."
    corner2 = "periodic_pair_middle_2d built another way: the contact point moved to a corner of the cell, the disks meet through the x and y faces at once; the series must be those of the middle to round-off."
    files = {
        "pair_middle.toml": pair("periodic_pair_middle", 3, False, mid3),
        "pair_corner.toml": pair("periodic_pair_corner", 3, True, corner3, "pair_middle.toml"),
        "pair_middle_2d.toml": pair("periodic_pair_middle_2d", 2, False, mid2),
        "pair_corner_2d.toml": pair("periodic_pair_corner_2d", 2, True, corner2, "pair_middle_2d.toml"),
        "crossing.toml": crossing(),
        "gas.toml": gas(),
    }
    for name, text in files.items():
        with open(name, "w") as f:
            f.write(text)
