"""Writes the chute-flow cases of this folder: python3 make_cases.py (from this folder).

A layer of about 15 diameters of polydisperse spheres (d uniform in [0.9, 1.1] mm, 2500 kg/m^3)
on a rough base of fixed spheres, in a cell periodic along the slope (x) and across it (y), with
gravity tilted by the inclination. The contact law is Silbert et al.'s (2001) linear
spring-dashpot with a history spring (k_t = 2/7 k_n, gamma_t = gamma_n / 2, restitution 0.88,
mu_p = 0.5), ten times softer (k_n = 2e4 m g / d) so that the runs fit in CI. Fifteen slabs one
diameter thick measure the mean velocity across the layer.
"""
import math
import random

HEADER = "# Written by make_cases.py: edit the script, not this file.\n"
D = 1.0e-3
RHO = 2500.0
G = 9.81
M = RHO * math.pi * D**3 / 6
M_EFF = M / 2
KN = 2.0e4 * M * G / D
E = 0.88
ZETA = -math.log(E) / math.sqrt(math.pi**2 + math.log(E) ** 2)
GAMMA_N = 2 * ZETA * math.sqrt(M_EFF * KN)
T_C = math.pi / math.sqrt(KN / M_EFF - (GAMMA_N / (2 * M_EFF)) ** 2)
DT = T_C / 25
SIDE = 8  # base cells along x and y
LAYERS = 20  # loose layers of 49 flowing balls: a layer about 14 d high once settled
SLABS = 15


def vec(v):
    return "[" + ", ".join(repr(float(x)) for x in v) + "]"


def chute(name, theta, duration, checks):
    rng = random.Random(11)
    L = SIDE * D
    s = HEADER + f'name = "{name}"\n'
    g = [G * math.sin(math.radians(theta)), 0.0, -G * math.cos(math.radians(theta))]
    description = (
        f"Chute flow at {theta} degrees: a layer of polydisperse spheres (d in [0.9, 1.1] mm) on a rough base of "
        f"{SIDE * SIDE} fixed spheres, periodic along and across the slope, Silbert et al.'s (2001) contact law "
        f"(k_n = 2e4 m g/d, k_t = 2/7 k_n, restitution 0.88, gamma_t = gamma_n/2, mu_p = 0.5), from rest for {duration} s. "
    )
    s += f'description = """{description}"""\n\n'
    s += f"[run]\nduration = {duration}\ngravity = {vec(g)}\nmargin = {0.1 * D}\n\n"
    s += f'[timestep]\nmode = "fixed"\ndt = {DT!r}\n\n'
    top = 0.5 * D + LAYERS * 1.15 * D + 2 * D
    s += f"[domain]\nmin = [0.0, 0.0, {-D}]\nmax = {vec([L, L, top])}\nperiodic = [\"x\", \"y\"]\n\n"
    s += f"[material.glass]\ndensity = {RHO}\n\n"
    s += '[[contact]]\nbetween = ["glass", "glass"]\nmodel = "hooke-history"\n'
    s += f"kn = {KN!r}\nks = {2 / 7 * KN!r}\ngamma_n = {GAMMA_N!r}\ngamma_t = {GAMMA_N / 2!r}\nfriction = 0.5\n\n"
    k = 0
    for i in range(SIDE):
        for j in range(SIDE):
            k += 1
            p = [(i + 0.5 + rng.uniform(-0.15, 0.15)) * D, (j + 0.5 + rng.uniform(-0.15, 0.15)) * D, rng.uniform(-0.2, 0.2) * D]
            s += f'[[ball]]\nid = {k}\npos = {vec(p)}\nradius = {0.5 * D}\nmaterial = "glass"\nfix = [\"x\", \"y\", \"z\", \"rx\", \"ry\", \"rz\"]\n\n'
    n_side = 7
    step = L / n_side
    for layer in range(LAYERS):
        for i in range(n_side):
            for j in range(n_side):
                k += 1
                r = 0.5 * D * rng.uniform(0.9, 1.1)
                p = [(i + 0.5) * step, (j + 0.5) * step, 1.5 * D + layer * 1.15 * D]
                v = [rng.uniform(-0.01, 0.01) for _ in range(3)]
                s += f'[[ball]]\nid = {k}\npos = {vec(p)}\nradius = {r!r}\nmaterial = "glass"\nvel = {vec(v)}\n\n'
    for b in range(SLABS):
        z0 = 0.5 * D + b * D
        s += f'[[measure]]\nname = "slab{b + 1:02d}"\nregion = {{ box = {{ min = {vec([0.0, 0.0, z0])}, max = {vec([L, L, z0 + D])} }} }}\n\n'
    series = ["energy/kinetic"] + [f"measure/slab{b + 1:02d}/{q}" for b in range(SLABS) for q in ("velocity", "mass")]
    s += "[output]\nevery = 2000\nseries = [" + ", ".join(f'"{x}"' for x in series) + "]\n\n"
    s += checks.format(regions=", ".join(f'"slab{b + 1:02d}"' for b in range(SLABS)), duration=duration)
    return s


BAGNOLD = """[[check]]
kind = "bagnold"
regions = [{regions}]
base = 0.0005
window = [{start}, {duration}]
fit = [0.0015, 0.0115]
tolerance = 0.03
"""

STOPS = """[[check]]
kind = "final_value"
series = "energy/kinetic"
expected = 0.0
abs_tolerance = 1e-10
formula = "below the stopping angle (about 19-20 degrees for Silbert et al.'s law, thick layers) the layer comes to rest: the kinetic energy falls from about 5e-5 J (the flows above) to nothing"
"""

if __name__ == "__main__":
    for theta in [23, 25]:
        dur = 2.5
        text = chute(f"chute_{theta}", theta, dur, BAGNOLD.replace("{start}", str(dur - 1.0)))
        open(f"chute_{theta}.toml", "w").write(text)
    open("chute_17.toml", "w").write(chute("chute_17", 17, 1.5, STOPS))
