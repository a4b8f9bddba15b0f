"""Writes the rheology cases of this folder: python3 make_cases.py [--prepare] (from this folder).

The scene (docs/CASES.md section 19; the study in docs/REFERENCES.md): N polydisperse spheres
(diameters uniform in [0.9, 1.1] mm, density 2500 kg/m^3) in a fully periodic cell, the linear
spring-dashpot of Silbert et al. (2001) and Chialvo, Sun & Sundaresan (2012) (LAMMPS's and
LIGGGHTS's hooke/history: k_n, k_t = 2/7 k_n, gamma_t = gamma_n / 2, restitution 0.7 at the mean
pair, particle friction mu_p = 0.5), no gravity; sheared by Lees-Edwards images (flow x, gradient
z) at a rate set by the inertial number I = rate d sqrt(rho / p), the cell's height servo-
controlled so that sigma_zz holds p = 1 kPa. Stiffness k_n / (p d) = 1e4 (the rigid limit of
da Cruz et al. 2005).

--prepare runs ballast once (target/release/ballast) to compress a loose random gas to p (the
cell's height servo-controlled, no shear), and keeps the final positions in packing.json; the cases start from it.
"""
import json
import math
import os
import random
import subprocess
import sys
import csv

HEADER = "# Written by make_cases.py: edit the script, not this file.\n"
HERE = os.path.dirname(os.path.abspath(__file__))

D = 1.0e-3  # mean diameter, m
RHO = 2500.0
P = 1000.0  # target normal stress, Pa
KAPPA = 1.0e4
KN = KAPPA * P * D
MU_P = 0.5
E = 0.7
M_MEAN = RHO * math.pi * D**3 / 6.0
M_EFF = M_MEAN / 2.0
ZETA = -math.log(E) / math.sqrt(math.pi**2 + math.log(E) ** 2)
GAMMA_N = 2.0 * ZETA * math.sqrt(M_EFF * KN)
T_C = math.pi / math.sqrt(KN / M_EFF - (GAMMA_N / (2.0 * M_EFF)) ** 2)
# (the smallest pair, 0.9 mm, has t_c 0.9^1.5 = 0.85 of this: dt = t_c / 25 keeps 21 steps)
DT = T_C / 25.0


def rate_of(i):
    """Shear rate (1/s) of inertial number i at the target pressure."""
    return i / (D * math.sqrt(RHO / P))


def vec(v):
    return "[" + ", ".join(repr(float(x)) for x in v) + "]"


def gas(n, seed, side, height):
    """n non-overlapping spheres placed at random in a cell side x side x height."""
    rng = random.Random(seed)
    balls = []
    for _ in range(n):
        r = 0.5 * D * rng.uniform(0.9, 1.1)
        for _ in range(10000):
            p = [rng.uniform(0, side), rng.uniform(0, side), rng.uniform(0, height)]
            ok = True
            for q, s in balls:
                d = [p[k] - q[k] for k in range(3)]
                L = [side, side, height]
                d = [d[k] - L[k] * round(d[k] / L[k]) for k in range(3)]
                if sum(x * x for x in d) < (r + s) ** 2 * 1.0001:
                    ok = False
                    break
            if ok:
                balls.append((p, r))
                break
        else:
            sys.exit("could not place the gas")
    return balls


def scene(name, description, balls, cell, rate, gain, max_rate, steps, every, series, vel=None, checks=""):
    s = HEADER + f'name = "{name}"\ndescription = """{description}"""\n\n'
    s += f"[run]\nsteps = {steps}\ngravity = [0.0, 0.0, 0.0]\nmargin = {0.05 * D}\n\n"
    s += f'[timestep]\nmode = "fixed"\ndt = {DT!r}\n\n'
    s += f"[domain]\nmin = [0.0, 0.0, 0.0]\nmax = {vec(cell)}\nperiodic = [\"x\", \"y\", \"z\"]\n"
    s += f'shear = {{ rate = {rate!r}, flow = "x", gradient = "z" }}\n'
    s += f'pressure = {{ target = {P!r}, axis = "z", gain = {gain!r}, max_rate = {max_rate!r}, every = 10 }}\n\n'
    s += f"[material.glass]\ndensity = {RHO}\n\n"
    s += '[[contact]]\nbetween = ["glass", "glass"]\nmodel = "hooke-history"\n'
    s += f"kn = {KN!r}\nks = {2.0 / 7.0 * KN!r}\ngamma_n = {GAMMA_N!r}\ngamma_t = {GAMMA_N / 2!r}\nfriction = {MU_P}\n\n"
    for k, (p, r) in enumerate(balls):
        s += f'[[ball]]\nid = {k + 1}\npos = {vec(p)}\nradius = {r!r}\nmaterial = "glass"\n'
        if vel:
            s += f"vel = {vec(vel[k])}\n"
        s += "\n"
    s += f"[output]\nevery = {every}\nseries = [" + ", ".join(f'"{x}"' for x in series) + "]\n"
    s += checks
    return s


def prepare(n=500, seed=7):
    """Compresses a loose gas to the target pressure and keeps the
    packing (positions, cell) in packing.json."""
    solid = sum(math.pi / 6 * (2 * r) ** 3 for r in [0.5 * D] * n)
    side = (solid / 0.6) ** (1 / 3)
    height = side * 0.6 / 0.3
    balls = gas(n, seed, side, height)
    # (without shear: a Lees-Edwards offset left at the end would not be the cases' zero one)
    rate = 0.0
    # gain: a strain rate of 2 1/s at 10 % off the target pressure
    steps = int(0.1 / DT)
    series = ["domain/stress", "domain/solid_fraction", "domain/size", "domain/strain"]
    series += [f"ball/{k + 1}/pos" for k in range(n)]
    text = scene("prepare", "preparation", balls, [side, side, height], rate, 2.0 / (0.1 * P), 20.0, steps, steps // 200, series)
    os.makedirs("/tmp/rheology_prepare", exist_ok=True)
    path = "/tmp/rheology_prepare/prepare.toml"
    open(path, "w").write(text)
    exe = os.path.join(HERE, "..", "..", "target", "release", "ballast")
    subprocess.run([exe, "run", path, "--out", "/tmp/rheology_prepare/out"], check=False)
    rows = list(csv.DictReader(open("/tmp/rheology_prepare/out/series.csv")))
    last = rows[-1]
    pos = [[float(last[f"ball/{k + 1}/pos.{a}"]) for a in "xyz"] for k in range(n)]
    cell = [float(last[f"domain/size.{a}"]) for a in "xyz"]
    json.dump({"cell": cell, "balls": [(p, r) for p, (_, r) in zip(pos, balls)]}, open(os.path.join(HERE, "packing.json"), "w"))
    for row in rows[:: max(1, len(rows) // 20)]:
        print(row["t"], row["domain/stress.zz"], row["domain/solid_fraction"], row["domain/size.z"])


FIT = """
[[check]]
kind = "mu_of_i"
points = [{points}]
from_strain = 1.0
mu_s = [0.30, 0.42]
phi_c = [0.57, 0.61]
published = [
  {{ label = "Jop, Forterre & Pouliquen 2006 (glass beads)", mu_s = 0.382, mu_2 = 0.643, i_0 = 0.279 }},
]
formula = "Published for frictional spheres (mu_p = 0.5, 3D DEM): mu_s about 0.36-0.38 and phi_c about 0.585-0.59 (Chialvo, Sun & Sundaresan 2012; Srivastava et al. 2021; Salerno et al. 2018, as quoted, not re-read from their tables: the ranges are wide); glass beads (Jop, Forterre & Pouliquen 2006): mu_s = 0.382, mu_2 = 0.643, I_0 = 0.279. mu_2 and I_0 are reported, not judged: no published DEM value for this law was at hand."
"""


def label(i):
    return f"{i:g}".replace(".", "p")


def point(i, strain, fit=None, folder="."):
    """The packing sheared at inertial number i for `strain` (averaged after 1)."""
    pack = json.load(open(os.path.join(HERE, "packing.json")))
    rate = rate_of(i)
    steps = int(round(strain / (rate * DT)))
    name = f"mu_i_{label(i)}"
    description = (
        f"The packing of make_cases.py ({len(pack['balls'])} spheres, d in [0.9, 1.1] mm, linear spring-dashpot "
        f"k_n/(p d) = 1e4, restitution 0.7, mu_p = 0.5) sheared by Lees-Edwards images at I = {i:g} "
        f"(rate {rate:.4g} 1/s) for a strain of {strain:g}, the cell's height servo-controlled to sigma_zz = {P:g} Pa. "
        "mu = -sigma_xz/sigma_zz and the solid fraction are averaged after a strain of 1."
    )
    # (each point is judged by the fit of mu_i_0p1.toml; its own run against its snapshot)
    checks = '\n[[check]]\nkind = "golden"\n'
    if fit:
        checks += fit
    series = ["domain/stress", "domain/solid_fraction", "domain/size", "domain/strain"]
    # the servo: a strain rate of `rate` at 100 % off the target, at most `rate`
    text = scene(name, description, pack["balls"], pack["cell"], rate, rate / P, rate, steps, max(1, steps // 400), series, checks=checks)
    open(os.path.join(HERE, folder, name + ".toml"), "w").write(text)
    return name


if __name__ == "__main__":
    os.chdir(HERE)
    if "--prepare" in sys.argv:
        prepare()
    others = [point(0.003, 3.0), point(0.01, 4.0), point(0.03, 4.0), point(0.3, 4.0), point(0.6, 4.0), point(1.0, 4.0)]
    point(0.1, 4.0, fit=FIT.format(points=", ".join(f'"{o}.toml"' for o in others)))
