"""Writes the periodic-cell cases of this folder: python3 make_cases.py (from this folder)."""
import json
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


def le_crossing():
    """One ball through the gradient face of a Lees-Edwards cell."""
    L, rate, T = 0.1, 10.0, 0.05
    U = rate * L
    x0, v = [0.05, 0.05, 0.09], [0.2, 0.0, 0.5]
    # it crosses z = L once; whenever it is brought back, x + offset(t) stays continuous, so
    # at the end x = x0 + (v_x - U) T and the velocity is v - U e_x
    end = [(x0[0] + (v[0] - U) * T) % L, x0[1], (x0[2] + v[2] * T) % L]
    s = HEADER + 'name = "lees_edwards_crossing"\n'
    s += f'description = """One ball (r = 5 mm) without gravity at {vec(v)} m/s in a periodic cube of side {L} m sheared at {rate} 1/s (flow x, gradient z: the image cell above moves at U = rate L = {U} m/s and is moved along x by U t). The ball leaves through the top face at t = 0.02 s and takes the place of its image below: its velocity jumps by -U along x, its x by minus the offset. Whenever the jump is made, x + offset stays continuous, so at t = {T} s: x = x0 + (v_x - U) T mod L = {end[0]:.6f} m, z = {end[2]:.6f} m, v = ({v[0] - U}, 0, {v[2]}) m/s; the offset is U T mod L = {(U * T) % L:.6f} m and the strain rate T = {rate * T}."""\n\n'
    s += f'[run]\nduration = {T}\ngravity = [0.0, 0.0, 0.0]\n\n[timestep]\nmode = "fixed"\ndt = 1e-4\n\n'
    s += f'[domain]\nmin = [0.0, 0.0, 0.0]\nmax = {vec([L] * 3)}\nperiodic = ["x", "y", "z"]\nshear = {{ rate = {rate}, flow = "x", gradient = "z" }}\n\n'
    s += "[material.glass]\ndensity = 2500.0\n\n"
    s += f'[[ball]]\nid = 1\npos = {vec(x0)}\nradius = 0.005\nmaterial = "glass"\nvel = {vec(v)}\n\n'
    s += '[output]\nevery = 10\nseries = ["ball/1/pos", "ball/1/vel", "domain/shear_offset", "domain/strain"]\n\n'
    checks = [("ball/1/pos.x", end[0]), ("ball/1/pos.z", end[2]), ("ball/1/vel.x", v[0] - U), ("ball/1/vel.z", v[2]),
              ("domain/shear_offset", (U * T) % L), ("domain/strain", rate * T)]
    for series, e in checks:
        s += f'[[check]]\nkind = "final_value"\nseries = "{series}"\nexpected = {e!r}\nabs_tolerance = 1e-12\n\n'
    return s


def le_gas():
    """The periodic gas, sheared: the energy books close with the boundary's work."""
    s = gas().replace('name = "periodic_gas"', 'name = "lees_edwards_gas"')
    s = s.replace("steps = 100000", "steps = 20000")
    s = s.replace('periodic = ["x", "y", "z"]\n', 'periodic = ["x", "y", "z"]\nshear = { rate = 10.0, flow = "x", gradient = "z" }\n')
    i = s.index('description = """') + len('description = """')
    j = s.index('"""', i)
    s = s[:i] + "The periodic gas of periodic_gas.toml sheared at 10 1/s by Lees-Edwards images (flow x, gradient z). The moving images do work on the balls: through every contact across the top or bottom face (F . the image's velocity jump) and through the velocity jump of each ball brought back through those faces. Booked as energy/work, it must close the balance: work in = dissipation + the change of kinetic and strain energy, to round-off once the leapfrog's own error (energy/integrator) is taken out." + s[j:]
    s = s[:s.index("[output]")]
    s += '[output]\nevery = 500\nseries = ["energy/kinetic", "energy/work", "energy/dissipated", "energy/balance", "domain/stress", "domain/strain"]\n\n'
    # (the leapfrog's own error, energy/integrator, is 1.5e-3 of the scale in this gas with or
    # without shear, 36 steps a contact: the check takes it out and asks for round-off)
    s += '[[check]]\nkind = "energy_balance"\nsubtract_integrator = true\ntolerance = 1e-10\n\n'
    return s


def pressure_gas():
    """The sheared gas under a servoed pressure: the energy books close with the remap's work."""
    s = le_gas().replace('name = "lees_edwards_gas"', 'name = "periodic_pressure_gas"')
    s = s.replace('shear = { rate = 10.0, flow = "x", gradient = "z" }\n',
                  'shear = { rate = 10.0, flow = "x", gradient = "z" }\n'
                  'pressure = { target = 20.0, axis = "z", gain = 0.05, max_rate = 2.0 }\n')
    i = s.index('description = """') + len('description = """')
    j = s.index('"""', i)
    s = s[:i] + ("The sheared gas of lees_edwards_gas.toml with its height servo-controlled to sigma_zz = 20 Pa, "
                 "about ten times its kinetic pressure: the cell shrinks along z and the balls are carried affinely "
                 "with it, which changes the overlaps of the contacts between two force passes without changing a "
                 "velocity. That change of the energy the contacts store is the work of the moving boundary, booked "
                 "in energy/work with the images' work; the balance must close to round-off once the leapfrog's own "
                 "error (energy/integrator) is taken out, as without the servo.") + s[j:]
    s = s.replace('"domain/stress", "domain/strain"]', '"domain/stress", "domain/strain", "domain/size"]')
    # (the remap's work is booked by the trapezoidal rule over each step, second order in dt:
    # 1.1e-4 of the scale is left at this dt, a quarter of it at dt/2; without it booked 2e-3)
    s = s.replace("tolerance = 1e-10\n", 'tolerance = 2e-4\nformula = "the remap of the balls with the cell is booked by the trapezoidal rule, of second order in the timestep: 1.1e-4 of the scale is left at this timestep, four times less at half of it (tests/periodic.rs); unbooked, 2.3e-3"\n')
    return s


def insert():
    """Insertion in a periodic cell: a new ball clears every image of the balls near a face."""
    L, n, r = 0.016, 250, 0.0009
    phi = n * 4.0 / 3.0 * math.pi * r ** 3 / L ** 3
    s = HEADER + 'name = "periodic_insert"\n'
    s += f'description = """{n} balls (r = {r * 1e3} mm) inserted at rest, at random, into the whole of a periodic cube of side {L * 1e3:g} mm (solid fraction {phi:.3f}); the region spans the cell, so a centre is drawn over the whole of each periodic length and a ball lies across a face with probability 1 - (1 - 2r/L)^3 = {1 - (1 - 2 * r / L) ** 3:.2f}, no gravity, no walls. A ball is placed where it touches no ball and no image of one across a face: so no two balls ever touch, through a face or not, and with nothing to set them moving none ever does. A ball placed against an image only would be found in contact at the next force pass, and push its neighbour: contacts/balls must be 0 at every record and the momentum 0.' + '"""\n\n'
    s += '[run]\nduration = 0.002\ngravity = [0.0, 0.0, 0.0]\n\n[timestep]\nmode = "fixed"\ndt = 1e-5\n\n'
    s += f'[domain]\nmin = [0.0, 0.0, 0.0]\nmax = {vec([L] * 3)}\nperiodic = ["x", "y", "z"]\n\n'
    s += "[material.glass]\ndensity = 2500.0\n\n"
    s += '[[contact]]\nbetween = ["glass", "glass"]\nmodel = "linear"\nkn = 100.0\nks = 100.0\nfriction = 0.5\n\n'
    s += f'[[insert]]\nname = "fill"\nregion = {{ box = {{ min = [0.0, 0.0, 0.0], max = {vec([L] * 3)} }} }}\nmaterial = "glass"\ncount = {n}\nradius = {{ kind = "uniform", min = {r}, max = {r} }}\nseed = 7\n\n'
    s += '[output]\nevery = 20\nseries = ["balls/count", "contacts/balls", "balls/momentum", "domain/solid_fraction"]\n\n'
    s += f'[[check]]\nkind = "final_value"\nseries = "balls/count"\nexpected = {n}.0\nabs_tolerance = 0.0\n\n'
    s += '[[check]]\nkind = "analytic"\nseries = "contacts/balls"\nreference = { kind = "polynomial", coeffs = [0.0] }\nabs_tolerance = 0.0\nformula = "no ball is placed touching a ball or an image of one"\n\n'
    s += f'[[check]]\nkind = "final_value"\nseries = "domain/solid_fraction"\nexpected = {phi!r}\ntolerance = 1e-12\nformula = "{n} x 4/3 pi r^3 / L^3"\n\n'
    return s


def rolling(name, periodic, resisted=False, other=None):
    """A ball rolling down a plane, gravity tilted 30 degrees from its normal and 30 degrees
    off x in it: in a cell periodic along x and y on the imaged base plane, which it crosses
    through both faces and over the diagonal of the plane's two facets many times, or on a wide
    plane of two facets without a cell, inside one facet (the reference). `resisted`: the full
    resolution mode and a rolling resistance (the frame's rolling spring goes with the state),
    else the reduced mode and none."""
    L, r, kn, T = 0.02, 0.002, 1.0e4, 0.3
    theta, phi = math.radians(30.0), math.radians(30.0)
    # (a soft rolling spring, mu_r r N / kr = 0.03 rad from its cap: at the faces a lost spring
    # would take tens of steps to come back, and the ball would roll on faster)
    mu_r, kr = (0.02, 1.0e-6) if resisted else (0.0, 0.0)
    g = [9.81 * math.sin(theta) * math.cos(phi), 9.81 * math.sin(theta) * math.sin(phi), -9.81 * math.cos(theta)]
    m = 2500.0 * 4.0 / 3.0 * math.pi * r ** 3
    z = r - m * 9.81 * math.cos(theta) / kn  # resting on the plane's spring
    # rolling without slip against a constant couple mu_r r N: a = (5/7) g (sin - mu_r cos)
    a = 5.0 / 7.0 * 9.81 * (math.sin(theta) - mu_r * math.cos(theta))
    s_max = 0.5 * a * T * T
    resistance = f" and a rolling resistance (PFC's spring, mu_r = {mu_r}, k_r = {kr:g} N m/rad)" if resisted else ""
    mode = "full" if resisted else "reduced"
    if periodic:
        description = (f"A ball (r = {r * 1e3:g} mm, glass) rolls down the base plane of a cell periodic along x and y (side {L * 1e3:g} mm), "
                       f"gravity tilted 30 degrees from the plane's normal and 30 degrees off x in the plane{resistance}. The plane spans the cell "
                       "exactly, so it is imaged across the faces (its facets reach past them). Over "
                       f"{T} s the ball crosses the x faces {int(s_max * math.cos(phi) / L)} times, the y faces {int(s_max * math.sin(phi) / L)} times and the diagonal between "
                       f"the plane's two facets; its contact with the plane is one contact, whose state ({mode} resolution mode) goes with it across "
                       f"the faces and the diagonal. It must move as on the wide plane of {other}, the same scene "
                       "without a cell, to round-off; and both as a sphere rolling without slip, |v| = (5/7) g (sin(theta) - mu_r cos(theta)) t "
                       f"= {a:.6f} t m/s (friction 0.5 > (2/7) tan 30 = 0.165).")
    else:
        description = (f"The reference of {name.replace('_bounded', '')}: the same ball{resistance} on a plane 1 m square without a cell, "
                       "rolling inside one of its two facets; v = (5/7) g (sin(theta) - mu_r cos(theta)) t = "
                       f"{a:.6f} t m/s for a sphere rolling without slip.")
    s = HEADER + f'name = "{name}"\ndescription = """{description}"""\n\n'
    s += f'[run]\nduration = {T}\ngravity = {vec(g)}\n\n[timestep]\nmode = "fixed"\ndt = 1e-5\n\n'
    if periodic:
        s += f'[domain]\nmin = [0.0, 0.0, -0.01]\nmax = {vec([L, L, 0.02])}\nperiodic = ["x", "y"]\n\n'
    s += "[material.glass]\ndensity = 2500.0\n\n"
    s += f'[[contact]]\nbetween = ["glass", "glass"]\nmodel = "linear"\nkn = {kn}\nks = {kn}\nfriction = 0.5\ndamp_n = 0.3\ndamp_s = 0.3\n'
    if resisted:
        s += f'rolling = {{ kind = "pfc", coefficient = {mu_r}, kr = {kr} }}\n'
    s += "\n"
    # (the reference's path, from (15, 10) mm some 0.16 m along (cos 30, sin 30), stays 0.2 m
    # inside the square and off its diagonal y = x + 0.3)
    size = [L, L] if periodic else [1.0, 1.0]
    centre = [L / 2, L / 2, 0.0] if periodic else [0.0, 0.3, 0.0]
    s += f'[[wall]]\nname = "base"\nmaterial = "glass"\nresolution = "{mode}"\n'
    s += f'plane = {{ center = {vec(centre)}, normal = [0.0, 0.0, 1.0], size = {vec(size)} }}\n\n'
    s += f'[[ball]]\nid = 1\npos = {vec([0.015, L / 2, z])}\nradius = {r}\nmaterial = "glass"\n\n'
    series = ["ball/1/vel", "ball/1/spin", "ball/1/pos", "wall/base/force"]
    if periodic:
        series.append("contacts/handovers")
    s += f'[output]\nevery = 50\nseries = {json.dumps(series)}\n\n'
    if other:
        for col in ["ball/1/vel.x", "ball/1/vel.y", "ball/1/vel.z", "ball/1/spin.x", "ball/1/spin.y", "ball/1/spin.z",
                    "ball/1/pos.z", "wall/base/force.x", "wall/base/force.y", "wall/base/force.z"]:
            s += f'[[check]]\nkind = "same_series"\nseries = "{col}"\ncase = "{other}"\ntolerance = 1e-12\n\n'
    for col, c in [("x", math.cos(phi)), ("y", math.sin(phi))]:
        s += f'[[check]]\nkind = "analytic"\nseries = "ball/1/vel.{col}"\nreference = {{ kind = "polynomial", coeffs = [0.0, {a * c!r}] }}\ntolerance = 1e-3\n'
        s += f'formula = "(5/7) g (sin(theta) - mu_r cos(theta)) {"cos" if col == "x" else "sin"}(phi) t: a sphere rolling without slip"\n\n'
    return s


def le_lattice():
    """An affinely sheared, pre-compressed simple cubic lattice: the closed-form stress."""
    n, a, r, kn, rate, T = 4, 0.002, 0.00101, 1.0e4, 1.0, 0.003
    L = n * a
    d0 = 2 * r - a
    c1 = kn / a ** 2 * d0 * rate
    c3 = -kn / a ** 2 * (a + d0) / 2 * rate ** 3
    s = HEADER + 'name = "lees_edwards_lattice"\n'
    s += f'description = """A simple cubic lattice of {n ** 3} balls (r = {r} m, spacing a = {a} m, so each bond is pre-compressed by d0 = 2r - a = {d0:.1e} m) fills a periodic cube of side {L} m, with frictionless linear springs (kn = {kn:g} N/m). It is sheared by Lees-Edwards images at {rate} 1/s (flow x, gradient z), the balls starting on the affine profile v_x = rate (z - L/2). By symmetry every ball stays on it (the bonds above and below a ball pull equally), so at strain g = rate t only the z bonds tilt: l = a (g, 0, 1), |l| = a sqrt(1 + g^2), force kn (2r - |l|) along l. Per ball one such bond in a volume a^3, so (compression positive) sigma_xz = kn (2r - a sqrt(1 + g^2)) g / (a^2 sqrt(1 + g^2)) = (kn/a^2) [d0 g - (a + d0) g^3 / 2] + O(g^5): the check takes the cubic, in t, c1 = {c1!r} Pa/s, c3 = {c3!r} Pa/s^3 (the g^5 term is below 1e-10 of it up to g = {rate * T}; the lattice is in unstable equilibrium under compression, so the run stops before round-off grows)."""\n\n'
    s += f'[run]\nduration = {T}\ngravity = [0.0, 0.0, 0.0]\n\n[timestep]\nmode = "fixed"\ndt = 1e-6\n\n'
    s += f'[domain]\nmin = [0.0, 0.0, 0.0]\nmax = {vec([L] * 3)}\nperiodic = ["x", "y", "z"]\nshear = {{ rate = {rate}, flow = "x", gradient = "z" }}\n\n'
    s += "[material.glass]\ndensity = 2500.0\n\n"
    s += f'[[contact]]\nbetween = ["glass", "glass"]\nmodel = "linear"\nkn = {kn}\nks = {kn}\nfriction = 0.0\n\n'
    k = 0
    for iz in range(n):
        for iy in range(n):
            for ix in range(n):
                k += 1
                p = [(ix + 0.5) * a, (iy + 0.5) * a, (iz + 0.5) * a]
                v = [rate * (p[2] - L / 2), 0.0, 0.0]
                s += f'[[ball]]\nid = {k}\npos = {vec(p)}\nradius = {r}\nmaterial = "glass"\nvel = {vec(v)}\n\n'
    s += '[output]\nevery = 100\nseries = ["domain/stress", "domain/strain", "energy/kinetic"]\n\n'
    s += f'[[check]]\nkind = "analytic"\nseries = "domain/stress.xz"\nreference = {{ kind = "polynomial", coeffs = [0.0, {c1!r}, 0.0, {c3!r}] }}\ntolerance = 1e-6\nformula = "(kn/a^2) [d0 g - (a + d0) g^3 / 2], g = rate t"\n\n'
    return s

def pressure_lattice(name, shear=0.0, restart=None, other=None):
    """A simple cubic stack of frictionless linear springs (3 x 3 x 4 balls of r = 1 mm, spaced
    2.2 mm along x and y so that only the z columns touch), its height servo-controlled to
    sigma_zz = 1e4 Pa; with `shear`, also sheared by Lees-Edwards images (flow x, gradient z)."""
    r, s, n, kn, p = 1e-3, 2.2e-3, (3, 3, 4), 1.0e4, 1.0e4
    delta = p * s * s / kn
    height = n[2] * (2 * r - delta)
    if shear:
        description = (
            f"{'Checkpoint and restart: ' if restart else ''}the stack of pressure_lattice.toml under the same servo, "
            f"sheared at {shear} 1/s by Lees-Edwards images (flow x, gradient z): the columns tilt and the cell's "
            "height moves with the stress while the images slide."
        )
        if restart:
            description += (
                f" [run] restart_at = {restart}: the whole state (the cell's length, offset, strain and the servo's rate, "
                "held between its readings every 7 cycles, among it) goes through a checkpoint's bytes mid-run; every "
                "series must equal the straight run's bit for bit."
            )
    else:
        description = (
            "Constant pressure, by hand: a simple cubic stack of 3 x 3 x 4 balls (r = 1 mm, frictionless linear springs "
            "k_n = 1e4 N/m, damped), spaced s = 2.2 mm along x and y so that only the columns along z touch, starts with its "
            "columns just touching in a periodic cell; the servo shrinks the cell's height until sigma_zz = 1e4 Pa. "
            "At rest each contact carries F = k_n delta over the branch length a = 2r - delta, and sigma_zz = "
            "(1/V) sum F a = N k_n delta a / (N s^2 a) = k_n delta / s^2, so delta = p s^2 / k_n = 4.84e-6 m and the "
            f"height is 4 (2r - delta) = {height!r} m."
        )
    text = HEADER + f'name = "{name}"\ndescription = """{description}"""\n\n'
    text += "[run]\nduration = 0.15\ngravity = [0.0, 0.0, 0.0]\n"
    if restart:
        text += f"restart_at = {restart}\n"
    text += '\n[timestep]\nmode = "fixed"\ndt = 2e-6\n\n'
    text += f"[domain]\nmin = [0.0, 0.0, 0.0]\nmax = {vec([n[0] * s, n[1] * s, n[2] * 2 * r])}\n"
    text += 'periodic = ["x", "y", "z"]\n'
    if shear:
        text += f'shear = {{ rate = {shear}, flow = "x", gradient = "z" }}\n'
    # (sheared: the servo acts every 7 cycles, so that a restart between two readings must
    # carry the rate it holds)
    every = ", every = 7" if shear else ""
    text += f'pressure = {{ target = {p}, axis = "z", gain = 2.4e-5, max_rate = 1.0{every} }}\n\n'
    text += "[material.glass]\ndensity = 2500.0\n\n"
    text += f'[[contact]]\nbetween = ["glass", "glass"]\nmodel = "linear"\nkn = {kn}\nks = {kn if shear else 0.0}\n'
    text += f"friction = {0.5 if shear else 0.0}\ndamp_n = 0.7\ndamp_s = 0.7\n\n"
    k = 0
    for z in range(n[2]):
        for y in range(n[1]):
            for x in range(n[0]):
                k += 1
                pos = [(x + 0.5) * s, (y + 0.5) * s, (z + 0.5) * 2 * r]
                text += f'[[ball]]\nid = {k}\npos = {vec(pos)}\nradius = {r}\nmaterial = "glass"\n\n'
    series = ["domain/size", "domain/stress", "domain/strain", "domain/shear_offset"]
    text += "[output]\nevery = 500\nseries = [" + ", ".join(f'"{x}"' for x in series) + "]\n\n"
    if other:
        for col in ["domain/size.z", "domain/stress.zz", "domain/stress.xz", "domain/shear_offset"]:
            text += f'[[check]]\nkind = "same_series"\nseries = "{col}"\ncase = "{other}"\ntolerance = 0.0\n\n'
    elif shear:
        # (the straight run the restarted one is judged against: its own run against its snapshot)
        text += '[[check]]\nkind = "golden"\n\n'
    else:
        text += f'[[check]]\nkind = "final_value"\nseries = "domain/size.z"\nexpected = {height!r}\nabs_tolerance = 1e-10\n'
        text += f'formula = "4 (2 r - p s^2 / k_n) with r = 1 mm, s = 2.2 mm, p = 1e4 Pa, k_n = 1e4 N/m (by hand, in the description)"\n\n'
        text += f'[[check]]\nkind = "final_value"\nseries = "domain/stress.zz"\nexpected = {p}\ntolerance = 1e-6\n\n'
    return text


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
        "lees_edwards_crossing.toml": le_crossing(),
        "lees_edwards_gas.toml": le_gas(),
        "lees_edwards_lattice.toml": le_lattice(),
        "pressure_lattice.toml": pressure_lattice("periodic_pressure_lattice"),
        "pressure_gas.toml": pressure_gas(),
        "insert.toml": insert(),
        "rolling_plane_bounded.toml": rolling("periodic_rolling_plane_bounded", False),
        "rolling_plane.toml": rolling("periodic_rolling_plane", True, other="rolling_plane_bounded.toml"),
        "rolling_plane_resisted_bounded.toml": rolling("periodic_rolling_plane_resisted_bounded", False, True),
        "rolling_plane_resisted.toml": rolling(
            "periodic_rolling_plane_resisted", True, True, other="rolling_plane_resisted_bounded.toml"
        ),
        "pressure_sheared.toml": pressure_lattice("periodic_pressure_sheared", shear=2.0),
        "pressure_sheared_restarted.toml": pressure_lattice(
            "periodic_pressure_sheared_restarted", shear=2.0, restart=20000, other="pressure_sheared.toml"
        ),
    }
    for name, text in files.items():
        with open(name, "w") as f:
            f.write(text)
