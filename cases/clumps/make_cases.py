#!/usr/bin/env python3
"""Writes the clump cases. Run from this folder: python3 make_cases.py.

Every reference is derived here in plain Python, independently of the engine (which computes the
mass properties of a union of pebbles by slicing it: see src/geom/union.rs):
- a union of two overlapping spheres is split by their radical plane into two spheres minus a
  cap each; a cap's volume and moments are integrals of polynomials in x, done exactly below;
- the union of pebbles whose overlaps are disjoint lenses is the sum of the spheres minus the
  lenses (a lens is two caps);
- torque-free motion of an axisymmetric body (Euler): the symmetry axis turns about the constant
  angular momentum L at the rate |L| / I_transverse, at a constant angle to it;
- a rigid body at rest on three supports: the vertical forces are m g times the barycentric
  coordinates of the centroid's projection in the triangle of the supports."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from energy_checks import save  # noqa: E402  (the energy_balance check of each case)
import math

RHO, G = 2500.0, 9.81


def vec(v):
    return "[" + ", ".join(repr(float(x)) for x in v) + "]"


def cap(R, a):
    """Cap of a ball of radius R centred at 0: the part with x >= a. Returns (V, ∫x, ∫x², ∫(y²+z²))."""
    def prim(x):
        return (
            math.pi * (R * R * x - x**3 / 3),
            math.pi * (R * R * x * x / 2 - x**4 / 4),
            math.pi * (R * R * x**3 / 3 - x**5 / 5),
            math.pi / 2 * (R**4 * x - 2 * R * R * x**3 / 3 + x**5 / 5),
        )
    hi, lo = prim(R), prim(a)
    return [h - l for h, l in zip(hi, lo)]


def two_sphere_union(R1, R2, d):
    """Union of a ball R1 at x = 0 and a ball R2 at x = d (overlapping): V, centroid x, I_axial/rho,
    I_transverse/rho (about the centroid)."""
    s1 = (d * d + R1 * R1 - R2 * R2) / (2 * d)
    full1, c1 = cap(R1, -R1), cap(R1, s1)
    p1 = [f - c for f, c in zip(full1, c1)]
    full2, c2 = cap(R2, -R2), cap(R2, d - s1)  # mirrored: x'' = d - x
    q = [f - c for f, c in zip(full2, c2)]
    V2, X1, X2, P2 = q
    p2 = [V2, d * V2 - X1, d * d * V2 - 2 * d * X1 + X2, P2]
    V, Sx, Sxx, P = [a + b for a, b in zip(p1, p2)]
    xc = Sx / V
    return V, xc, P, Sxx - V * xc * xc + P / 2


def lens(ci, ri, cj, rj):
    """Lens shared by two overlapping balls: volume and centroid."""
    u = [b - a for a, b in zip(ci, cj)]
    d = math.sqrt(sum(x * x for x in u))
    u = [x / d for x in u]
    si = (d * d + ri * ri - rj * rj) / (2 * d)
    Vi, Xi, _, _ = cap(ri, si)  # part of ball i beyond the radical plane
    Vj, Xj, _, _ = cap(rj, d - si)  # part of ball j on i's side, mirrored about its centre
    V = Vi + Vj
    along = (Xi + d * Vj - Xj) / V  # centroid distance from c_i along u
    return V, [a + along * x for a, x in zip(ci, u)]


HEAD = """# Written by make_cases.py: edit the script, not this file.
name = "{name}"
description = \"\"\"{description}\"\"\"
"""

MATERIAL = """
[material.glass]
density = 2500.0

[material.steel]
density = 7800.0
"""


def free_flight(duration):
    """The [run] and [timestep] tables of a torque-free clump (no gravity, dt = 1e-4 s) and the material."""
    return f"""[run]
duration = {duration!r}
gravity = [0.0, 0.0, 0.0]

[timestep]
mode = "fixed"
dt = 1e-4
{MATERIAL}"""


def drift_checks(angmom_formula, energy_tolerance, energy_formula):
    """The two drift studies of a torque-free clump: angular momentum to round-off, energy."""
    out = ""
    for series, tol, formula in [
        ("clump/1/angmom", 1e-12, angmom_formula),
        ("energy/kinetic", energy_tolerance, energy_formula + " (the fitted order is reported, not judged)"),
    ]:
        out += f"""
[[check]]
kind = "drift"
series = "{series}"
dts = [4e-4, 2e-4, 1e-4, 5e-5]
tolerance = {tol!r}
formula = "{formula}"
"""
    return out


def torque_free():
    R1, R2, d = 0.01, 0.008, 0.012
    V, xc, Pa, Pt = two_sphere_union(R1, R2, d)
    m, I3, I1 = RHO * V, RHO * Pa, RHO * Pt
    w = [40.0, 25.0, 0.0]  # pebble axis along x at the start: L = (I3 wx, I1 wy, 0)
    L = [I3 * w[0], I1 * w[1], 0.0]
    Ln = math.hypot(L[0], L[1])
    E = 0.5 * (I3 * w[0] ** 2 + I1 * w[1] ** 2)
    Omega = Ln / I1  # precession rate of the axis about L
    T = 2 * math.pi / Omega
    cos_t = L[0] / Ln  # angle between the axis (x) and L
    sin_t = math.sqrt(1 - cos_t**2)
    # axis e(t) = cos θ L̂ + sin θ (cos Ωt u + sin Ωt (L̂ x u)), u = (x̂ - cos θ L̂)/sin θ
    Lh = [L[0] / Ln, L[1] / Ln, 0.0]
    u = [(1 - cos_t * Lh[0]) / sin_t, (-cos_t * Lh[1]) / sin_t, 0.0]
    lxu_z = Lh[0] * u[1] - Lh[1] * u[0]
    s2 = d - xc  # pebble 2 from the centroid along the axis
    amp = s2 * sin_t * lxu_z  # z of pebble 2 = amp sin(Ωt) = amp cos(Ωt - 90°)
    duration = 2 * T
    pos = [-xc, 0.0, 0.0]  # reference point placed so that the centroid is at the origin
    description = (
        f"A clump of two overlapping pebbles (radii {R1} and {R2} m, centres {d} m apart, density {RHO}) "
        f"spins freely, without gravity or contact, about an axis that is not principal: w = {w} rad/s with "
        "the pebble axis along x. Torque-free motion of an axisymmetric body: L is constant, the symmetry axis "
        "turns about L at |L|/I1 on a cone, the kinetic energy is constant. The mass properties come from "
        "the union of the pebbles (src/geom/union.rs), the references from exact cap integrals (make_cases.py)."
    )
    text = HEAD.format(name="torque_free", description=description)
    text += f"""
{free_flight(duration)}
[[clump]]
id = 1
pos = {vec(pos)}
material = "glass"
pebbles = [ {{ offset = [0.0, 0.0, 0.0], radius = {R1!r} }}, {{ offset = [{d!r}, 0.0, 0.0], radius = {R2!r} }} ]
spin = {vec(w)}

[output]
every = 10
series = ["clump/1/pebble/2/pos", "clump/1/angmom", "clump/1/spin", "energy/kinetic"]

[[check]]
kind = "analytic"
series = "clump/1/pebble/2/pos.z"
reference = {{ kind = "harmonic", mean = 0.0, amplitude = {amp!r}, period = {T!r}, phase_deg = -90.0 }}
abs_tolerance = {abs(amp) * 2e-3!r}
formula = "axis precessing about L at Omega = |L|/I1 = {Omega:.9g} rad/s, cone angle {math.degrees(math.acos(cos_t)):.6f} deg; pebble 2 at {s2:.9g} m from the centroid; I1 = {I1:.9e}, I3 = {I3:.9e} kg m^2 from exact cap integrals"

[[check]]
kind = "analytic"
series = "clump/1/angmom.x"
reference = {{ kind = "polynomial", coeffs = [{L[0]!r}] }}
tolerance = 1e-9
formula = "L_x = I3 w_x with the axial moment I3 = rho (integral of (y^2+z^2) over the union) = {I3:.12e} kg m^2 (exact cap integrals)"

[[check]]
kind = "analytic"
series = "clump/1/angmom.y"
reference = {{ kind = "polynomial", coeffs = [{L[1]!r}] }}
tolerance = 1e-9
formula = "L_y = I1 w_y with the transverse moment about the centroid I1 = {I1:.12e} kg m^2 (exact cap integrals)"
"""
    text += drift_checks("no moment acts: L is constant (the integrator changes L only by M dt)", 1e-5,
                         f"no force and no moment: E = (I3 w_x^2 + I1 w_y^2)/2 = {E:.12e} J is constant")
    save("torque_free.toml", text)


def torque_free_asymmetric():
    pebbles = [([0.0, 0.0, 0.0], 0.01), ([0.012, 0.0, 0.0], 0.008), ([0.002, 0.01, 0.003], 0.006)]
    peb = ", ".join("{ offset = %s, radius = %r }" % (vec(o), r) for o, r in pebbles)
    description = (
        "A clump of three overlapping pebbles not on a line (three different principal moments) spins freely "
        "without gravity or contact, w = [30, 20, 10] rad/s. No closed form is used: the angular momentum must "
        "stay constant to round-off and the kinetic energy must drift less the smaller the timestep (the fitted "
        "order is shown)."
    )
    text = HEAD.format(name="torque_free_asymmetric", description=description)
    text += f"""
{free_flight(0.4)}
[[clump]]
id = 1
pos = [0.0, 0.0, 0.0]
material = "glass"
pebbles = [ {peb} ]
spin = [30.0, 20.0, 10.0]

[output]
every = 10
series = ["clump/1/angmom", "clump/1/spin", "energy/kinetic"]
"""
    text += drift_checks("no moment acts: L is constant", 1e-4,
                         "no force and no moment: the kinetic energy is constant")
    save("torque_free_asymmetric.toml", text)


def tripod(scaled=False):
    rf, rt = 0.005, 0.007
    feet = [[0.008 * math.cos(a), 0.008 * math.sin(a), 0.0] for a in (0.3, 0.3 + 2 * math.pi / 3, 0.3 + 4 * math.pi / 3)]
    top = [0.002, 0.001, 0.007]
    for i in range(3):
        for j in range(i + 1, 3):
            dij = math.dist(feet[i], feet[j])
            assert dij > 2 * rf, "feet must not overlap: every overlap is then a lens of the top pebble and one foot"
    V = 3 * 4 / 3 * math.pi * rf**3 + 4 / 3 * math.pi * rt**3
    S = [0.0] * 3
    for f in feet:
        S = [s + 4 / 3 * math.pi * rf**3 * x for s, x in zip(S, f)]
    S = [s + 4 / 3 * math.pi * rt**3 * x for s, x in zip(S, top)]
    for f in feet:
        assert math.dist(f, top) < rf + rt
        Vl, cl = lens(top, rt, f, rf)
        V -= Vl
        S = [s - Vl * x for s, x in zip(S, cl)]
    c = [s / V for s in S]
    m = RHO * V
    # barycentric coordinates of (cx, cy) in the triangle of the feet
    (x1, y1, _), (x2, y2, _), (x3, y3, _) = feet
    det = (y2 - y3) * (x1 - x3) + (x3 - x2) * (y1 - y3)
    l1 = ((y2 - y3) * (c[0] - x3) + (x3 - x2) * (c[1] - y3)) / det
    l2 = ((y3 - y1) * (c[0] - x3) + (x1 - x3) * (c[1] - y3)) / det
    lam = [l1, l2, 1 - l1 - l2]
    assert all(0 < x < 1 for x in lam)
    kn = 1e5
    description = (
        f"A clump of four pebbles (three feet of radius {rf} m at 8 mm from the axis, a top pebble of radius {rt} m "
        f"off-centre, overlapping each foot) is dropped 1 mm onto a floor of 32 facets and comes to rest (linear "
        f"contacts, kn = {kn} N/m, half of critical damping, friction 0.5; automatic timestep with the clump's "
        "lever arms). At rest the three feet carry m g split by the barycentric coordinates of the centroid in "
        "their triangle; the top pebble carries nothing. The centroid and mass come from exact sphere-minus-lens "
        "integrals in make_cases.py."
    )
    name = "tripod_rest_scaled" if scaled else "tripod_rest"
    if scaled:
        description += (
            " Here with timestep scaling (a fictitious mass and moment of inertia from the row sums of the clump's own stiffness, "
            "lever arms included, with the kinematic constraint from the pebbles' velocities): the forces at rest "
            "do not depend on the inertia, so the references are the same."
        )
        # the row-sum bound: the diagonal (eqs. 5, 7) ignores the coupling of translation and tilt
        # through the feet's lever arms and with dashpots does not settle here
        timestep = 'mode = "scaled"\ndt = 1.0\nestimator = "bound"\nkinematic = true\nkinematic_eps = 1e-5'
        duration = None
    else:
        timestep = 'mode = "auto"\nsafety = 0.5'
        duration = 0.25
    run_line = "steps = 200000\nsolve_ratio = 1e-9" if duration is None else f"duration = {duration!r}"
    text = HEAD.format(name=name, description=description)
    text += f"""
[run]
{run_line}
gravity = [0.0, 0.0, -9.81]

[timestep]
{timestep}
{MATERIAL}
[[contact]]
between = ["glass", "steel"]
model = "linear"
kn = {kn!r}
ks = {kn!r}
friction = 0.5
damp_n = 0.5
damp_s = 0.5

[[clump]]
id = 1
pos = [0.001, -0.002, {rf + 1e-3!r}]
material = "glass"
pebbles = [
    {{ offset = {vec(feet[0])}, radius = {rf!r} }},
    {{ offset = {vec(feet[1])}, radius = {rf!r} }},
    {{ offset = {vec(feet[2])}, radius = {rf!r} }},
    {{ offset = {vec(top)}, radius = {rt!r} }},
]

[[wall]]
name = "floor"
material = "steel"
plane = {{ center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [0.06, 0.06], divisions = [4, 4] }}

[output]
every = 20
series = ["clump/1/pos", "clump/1/vel", "clump/1/spin", "clump/1/pebble/1/force", "clump/1/pebble/2/force", "clump/1/pebble/3/force", "clump/1/pebble/4/force", "interaction/1/floor/active", "interaction/1/floor/normal_force", "dt"]
"""
    for k in range(3):
        F = lam[k] * m * G
        text += f"""
[[check]]
kind = "final_value"
series = "clump/1/pebble/{k + 1}/force.z"
expected = {F!r}
tolerance = 1e-4
formula = "F_{k + 1} = lambda_{k + 1} m g: barycentric coordinate {lam[k]:.9f} of the centroid ({c[0]:.9e}, {c[1]:.9e}) m in the feet's triangle, m = {m:.9e} kg (spheres minus three lenses, exact)"
"""
    text += f"""
[[check]]
kind = "final_value"
series = "clump/1/pebble/4/force.z"
expected = 0.0
abs_tolerance = 1e-12
formula = "the top pebble does not touch the floor"

[[check]]
kind = "final_value"
series = "interaction/1/floor/normal_force"
expected = {m * G!r}
tolerance = 1e-4
formula = "the floor carries the weight m g, m = {m:.9e} kg"

[[check]]
kind = "final_value"
series = "interaction/1/floor/active"
expected = 3.0
abs_tolerance = 0.0
formula = "one active contact per foot: the three pebble-floor interactions are one clump-floor interaction"
"""
    save(name + ".toml", text)


def one_pebble():
    r = 0.01
    common = f"""
[run]
duration = 0.06
gravity = [0.0, 0.0, -9.81]

[timestep]
mode = "fixed"
dt = 1e-5
{MATERIAL}
[[contact]]
between = ["glass", "steel"]
model = "linear"
kn = 1e5
ks = 5e4
friction = 0.3
damp_n = 0.2
damp_s = 0.2

[[wall]]
name = "floor"
material = "steel"
plane = {{ center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [0.2, 0.2], divisions = [3, 3] }}
"""
    series = '["interaction/1/floor/normal_force", "interaction/1/floor/shear_force", "energy/kinetic"]'
    body = f"pos = [0.003, -0.002, {r + 0.002!r}]\nmaterial = \"glass\"\nvel = [0.4, 0.1, -0.2]\nspin = [5.0, -30.0, 12.0]\n"
    desc = ("A sphere of radius {r} m thrown onto a faceted floor with spin and friction (it slides, then rolls), "
            "built {how}. The clump's mass properties come from the union integration (one sphere: exact to "
            "round-off), its rotation from the full-tensor integrator; the series must match the ball's.")
    clump = HEAD.format(name="one_pebble_clump", description=desc.format(r=r, how="as a clump of one pebble"))
    clump += common + f"""
[[clump]]
id = 1
{body}pebbles = [ {{ offset = [0.0, 0.0, 0.0], radius = {r!r} }} ]

[output]
every = 20
series = {series}
"""
    for s in ("interaction/1/floor/normal_force", "interaction/1/floor/shear_force", "energy/kinetic"):
        clump += f"""
[[check]]
kind = "same_series"
series = "{s}"
case = "one_pebble_ball.toml"
tolerance = 1e-9
"""
    ball = HEAD.format(name="one_pebble_ball", description=desc.format(r=r, how="as a ball (the reference of one_pebble_clump)"))
    ball += common + f"""
[[ball]]
id = 1
radius = {r!r}
{body}
[output]
every = 20
series = {series}
"""
    save("one_pebble_clump.toml", clump)
    save("one_pebble_ball.toml", ball)


torque_free()
torque_free_asymmetric()
tripod()
tripod(scaled=True)
one_pebble()
