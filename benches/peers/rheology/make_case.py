#!/usr/bin/env python3
"""Writes a ballast case TOML for a periodic Lees-Edwards shear cell of polydisperse spheres.

The balls start on a jittered FCC lattice whose nearest-neighbour spacing is set by the wanted
solid fraction (no overlaps as long as the spacing exceeds the largest diameter), with the shear
profile v_x = rate (z - middle) plus a random velocity. Contact law: hooke-history with
kn/(p d) = kappa at the reference pressure, ks = 2/7 kn, gamma_n for a restitution e with the mean
effective mass, gamma_t = gamma_n / 2, dt = t_c / 50.

  python3 make_case.py --out shear_cv.toml                        # constant volume
  python3 make_case.py --out shear_p.toml --pressure 1000         # + [domain] pressure
"""
import argparse, math, random

p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--name", default=None)
p.add_argument("--cells", type=int, default=6, help="FCC unit cells per side (4 n^3 balls)")
p.add_argument("--phi", type=float, default=0.56, help="initial solid fraction")
p.add_argument("--d", type=float, default=1e-3, help="mean diameter, m")
p.add_argument("--poly", type=float, default=0.10, help="diameters uniform in d (1 +/- poly)")
p.add_argument("--density", type=float, default=2500.0)
p.add_argument("--pref", type=float, default=1e3, help="reference pressure for kn, Pa")
p.add_argument("--kappa", type=float, default=1e4, help="kn / (pref d)")
p.add_argument("--e", type=float, default=0.7, help="restitution")
p.add_argument("--friction", type=float, default=0.5)
p.add_argument("--inertial", type=float, default=0.1, help="wanted I at pref: sets the rate")
p.add_argument("--rate", type=float, default=None, help="shear rate 1/s (overrides --inertial)")
p.add_argument("--strain", type=float, default=5.0)
p.add_argument("--dtfrac", type=float, default=50.0, help="dt = t_c / dtfrac")
p.add_argument("--pressure", type=float, default=None, help="add [domain] pressure target, Pa")
p.add_argument("--gain", type=float, default=5e-3, help="servo gain, 1/(Pa s)")
p.add_argument("--max-rate", type=float, default=5.0, help="servo strain-rate cap, 1/s")
p.add_argument("--records", type=int, default=1000)
p.add_argument("--seed", type=int, default=1)
a = p.parse_args()

rng = random.Random(a.seed)
n = a.cells
N = 4 * n ** 3
dmin, dmax = a.d * (1 - a.poly), a.d * (1 + a.poly)
diam = [rng.uniform(dmin, dmax) for _ in range(N)]
vsol = sum(math.pi / 6 * x ** 3 for x in diam)
# cubic cell of side L holding N balls at solid fraction phi
L = (vsol / a.phi) ** (1.0 / 3.0)
lat = L / n
s = lat / math.sqrt(2.0)  # nearest-neighbour spacing
if s <= dmax:
    raise SystemExit(f"phi {a.phi} too high for a non-overlapping FCC start (spacing {s:.4g} <= dmax {dmax:.4g})")
basis = [(0, 0, 0), (0.5, 0.5, 0), (0.5, 0, 0.5), (0, 0.5, 0.5)]
pos = []
for i in range(n):
    for j in range(n):
        for k in range(n):
            for b in basis:
                pos.append([(i + b[0] + 0.25) * lat, (j + b[1] + 0.25) * lat, (k + b[2] + 0.25) * lat])
# jitter: each ball moves at most (s - dmax)/2 so that no pair overlaps
jit = 0.5 * (s - dmax) * 0.999
for q in pos:
    while True:
        dx = [rng.uniform(-jit, jit) for _ in range(3)]
        if sum(x * x for x in dx) <= jit * jit:
            break
    for c in range(3):
        q[c] += dx[c]

m_mean = sum(a.density * math.pi / 6 * x ** 3 for x in diam) / N
m_eff = m_mean / 2
kn = a.kappa * a.pref * a.d
ks = 2.0 / 7.0 * kn
ln_e = math.log(a.e)
zeta = -ln_e / math.sqrt(math.pi ** 2 + ln_e ** 2)
gamma_n = 2 * zeta * math.sqrt(kn * m_eff)
gamma_t = gamma_n / 2
w0 = math.sqrt(kn / m_eff)
tc = math.pi / (w0 * math.sqrt(1 - zeta ** 2))
dt = tc / a.dtfrac
rate = a.rate if a.rate is not None else a.inertial * math.sqrt(a.pref / a.density) / a.d
steps = int(round(a.strain / rate / dt))
every = max(1, steps // a.records)
mid = 0.5 * L
vrand = 0.2 * rate * a.d
name = a.name or a.out.rsplit("/", 1)[-1].removesuffix(".toml")

out = []
w = out.append
w(f'name = "{name}"')
desc = (f"Peer bench (benches/peers/rheology): {N} polydisperse spheres (d = {a.d*1e3:g} mm +/- {a.poly*100:g} %, "
        f"density {a.density:g}) in a periodic cell sheared by Lees-Edwards images at {rate:.4g} 1/s (flow x, gradient z) "
        f"to a strain of {a.strain:g}; hooke-history kn = {kn:.4g} N/m (kn/(p d) = {a.kappa:g} at p = {a.pref:g} Pa), "
        f"ks = 2/7 kn, gamma_n = {gamma_n:.4g} N s/m (e = {a.e:g} at the mean effective mass), gamma_t = gamma_n/2, "
        f"friction {a.friction:g}; dt = t_c/{a.dtfrac:g}. Start: jittered FCC at solid fraction {a.phi:g} on the shear profile.")
if a.pressure is not None:
    desc += f" Cell length along z servo-controlled to hold sigma_zz = {a.pressure:g} Pa."
w(f'description = """{desc}"""')
w("")
w("[run]")
w(f"steps = {steps}")
w("gravity = [0.0, 0.0, 0.0]")
w("")
w("[timestep]")
w('mode = "fixed"')
w(f"dt = {dt!r}")
w("")
w("[domain]")
w("min = [0.0, 0.0, 0.0]")
w(f"max = [{L!r}, {L!r}, {L!r}]")
w('periodic = ["x", "y", "z"]')
w(f'shear = {{ rate = {rate!r}, flow = "x", gradient = "z" }}')
if a.pressure is not None:
    w(f'pressure = {{ target = {a.pressure!r}, axis = "z", gain = {a.gain!r}, max_rate = {a.max_rate!r} }}')
w("")
w("[material.glass]")
w(f"density = {a.density!r}")
w("")
w("[[contact]]")
w('between = ["glass", "glass"]')
w('model = "hooke-history"')
w(f"kn = {kn!r}")
w(f"ks = {ks!r}")
w(f"gamma_n = {gamma_n!r}")
w(f"gamma_t = {gamma_t!r}")
w(f"friction = {a.friction!r}")
w("")
w("[output]")
w(f"every = {every}")
w('series = ["domain/stress", "domain/size", "domain/solid_fraction", "domain/strain"]')
for i, (q, d) in enumerate(zip(pos, diam)):
    v = [rate * (q[2] - mid) + rng.gauss(0, vrand), rng.gauss(0, vrand), rng.gauss(0, vrand)]
    w("")
    w("[[ball]]")
    w(f"id = {i + 1}")
    w(f"pos = [{q[0]!r}, {q[1]!r}, {q[2]!r}]")
    w(f"radius = {d / 2!r}")
    w('material = "glass"')
    w(f"vel = [{v[0]!r}, {v[1]!r}, {v[2]!r}]")
open(a.out, "w").write("\n".join(out) + "\n")
print(f"{a.out}: N={N} L={L:.5g} m phi={vsol/L**3:.4f} kn={kn:.4g} gamma_n={gamma_n:.4g} "
      f"t_c={tc:.4g} dt={dt:.4g} rate={rate:.4g} steps={steps} every={every}")
