#!/usr/bin/env python3
"""Writes the Chung & Ooi (2011) benchmark cases of this folder (edit this script, not the
generated files, then run it: python3 cases/chung_ooi/make_cases.py).

Chung, Y.C. and Ooi, J.Y. (2011), Benchmark tests for verifying discrete element modelling
codes at particle impact level, Granular Matter 13:643-656. Material data of its Table 1, with
the values as transcribed in Yade's scripts of these benchmarks where the two differ.
The rigid plane is a wall of a material with young = inf (E* comes from the sphere alone).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from energy_checks import save  # noqa: E402  (the energy_balance check of each case)
import math, os

HERE = os.path.dirname(os.path.abspath(__file__))
CITE = "Chung & Ooi (2011), Granular Matter 13:643-656"

MATERIALS = {
    # name: (density kg/m^3, young Pa, poisson)
    "glass": (2800.0, 4.8e10, 0.20),
    "limestone": (2500.0, 2.0e10, 0.25),
    "aluminium_alloy": (2699.0, 7.0e10, 0.30),
    "magnesium_alloy": (1800.0, 4.0e10, 0.35),
    "aluminium_oxide": (4000.0, 3.8e11, 0.23),
    "cast_iron": (7000.0, 1.0e11, 0.25),
}


def material(name):
    rho, e, nu = MATERIALS[name]
    return f"[material.{name}]\ndensity = {rho}\nyoung = {e:.6e}\npoisson = {nu}\n"


def write(name, text):
    save(os.path.join(HERE, name + ".toml"), text)


def timestep(steps):
    return f'[timestep]\nmode = "model"\nloading_steps = {steps}\n'


def checks(other, kinds, tolerance):
    """The collision checks of one case, each against `other` (a ball id or a quoted wall name)."""
    return "".join(f"""
[[check]]
kind = "{k}"
ball = 1
other = {other}
tolerance = {tolerance}
""" for k in kinds)


HERTZ_IMPACT = ["max_overlap", "max_force", "contact_duration", "restitution"]

RIGID = "[material.rigid]\ndensity = 1000.0\nyoung = inf\npoisson = 0.3\n"


def plane_wall():
    return ('[[wall]]\nname = "plane"\nmaterial = "rigid"\n'
            'plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [0.2, 0.2] }\n')


# Test 1: two identical spheres, 10 m/s each (20 m/s relative), elastic.
for mat in ["glass", "limestone"]:
    r = 0.01
    write(f"test1_{mat}", f'''name = "chung_ooi_test1_{mat}"
description = """{CITE}, test 1: elastic normal impact of two identical {mat.replace('_', ' ')} \\
spheres (R = 10 mm) at 10 m/s each. Largest overlap, largest force and contact duration against \\
the Hertz solution (E* = E/(2(1-v^2)), R* = R/2, m* = m/2, v = 20 m/s)."""

[run]
duration = 2.2e-4
margin = 1e-5

{timestep(100)}
{material(mat)}
[[contact]]
between = ["{mat}", "{mat}"]
model = "hertz"
friction = 0.35
restitution = 1.0

[[ball]]
pos = [-0.01001, 0.0, 0.0]
radius = {r}
material = "{mat}"
vel = [10.0, 0.0, 0.0]

[[ball]]
pos = [0.01001, 0.0, 0.0]
radius = {r}
material = "{mat}"
vel = [-10.0, 0.0, 0.0]

[output]
series = ["interaction/1/2/overlap", "interaction/1/2/normal_force", "ball/1/vel", "energy/kinetic", "energy/strain", "dt"]
{checks(2, HERTZ_IMPACT, "1e-3")}
[[check]]
kind = "golden"
''')

# Test 2: a sphere on a rigid plane at 0.2 m/s, elastic.
for mat in ["aluminium_alloy", "magnesium_alloy"]:
    r = 0.1
    write(f"test2_{mat}", f'''name = "chung_ooi_test2_{mat}"
description = """{CITE}, test 2: elastic normal impact of a {mat.replace('_', ' ')} sphere \\
(R = 0.1 m) on a rigid plane at 0.2 m/s. Largest overlap, largest force and contact duration \\
against the Hertz solution (E* = E/(1-v^2), R* = R, m* = m)."""

[run]
duration = 1.2e-3
margin = 1e-5

{timestep(100)}
{material(mat)}
{RIGID}
[[contact]]
between = ["{mat}", "rigid"]
model = "hertz"
friction = 0.0
restitution = 1.0

[[ball]]
pos = [0.0, 0.0, 0.10000002]
radius = {r}
material = "{mat}"
vel = [0.0, 0.0, -0.2]

{plane_wall()}
[output]
series = ["interaction/1/plane/overlap", "interaction/1/plane/normal_force", "ball/1/vel", "energy/kinetic", "dt"]
{checks('"plane"', HERTZ_IMPACT, "1e-3")}
[[check]]
kind = "golden"
''')

# Test 3: restitution 0.2 ... 1.0 of a sphere on a rigid plane at 3.9 m/s.
for mat in ["aluminium_oxide", "cast_iron"]:
    for e in [0.2, 0.4, 0.6, 0.8, 1.0]:
        for clamp in ([True, False] if (mat == "aluminium_oxide" and e == 0.4) else [True]):
            tag = "" if clamp else "_unclamped"
            write(f"test3_{mat}_e{int(round(e * 10)):02d}{tag}", f'''name = "chung_ooi_test3_{mat}_e{int(round(e * 10)):02d}{tag}"
description = """{CITE}, test 3: a {mat.replace('_', ' ')} sphere (R = 2.5 mm) hits a rigid \\
plane at 3.9 m/s with the Hertz model asked for restitution {e}{'' if clamp else ', normal force not clamped at zero'}. \\
The measured -v'/v must be the requested value (the damping is derived from it by solving the \\
dimensionless impact, src/law/restitution.rs)."""

[run]
duration = 3e-5
margin = 1e-6

{timestep(200)}
{material(mat)}
{RIGID}
[[contact]]
between = ["{mat}", "rigid"]
model = "hertz"
friction = 0.0
restitution = {e}
clamp = {str(clamp).lower()}

[[ball]]
pos = [0.0, 0.0, 0.002501]
radius = 0.0025
material = "{mat}"
vel = [0.0, 0.0, -3.9]

{plane_wall()}
[output]
series = ["interaction/1/plane/overlap", "interaction/1/plane/normal_force", "ball/1/vel", "dt"]

[[check]]
kind = "restitution"
ball = 1
other = "plane"
tolerance = 5e-3

[[check]]
kind = "golden"
''')

# Test 4: oblique impacts at 5..85 degrees, |v| = 3.9 m/s, friction 0.092, elastic.
MU, E = 0.092, 1.0
for angle in range(5, 90, 5):
    th = math.radians(angle)
    vt, vn = 3.9 * math.sin(th), 3.9 * math.cos(th)
    sliding = math.tan(th) >= 3.5 * MU * (1.0 + E)
    judged = '''
[[check]]
kind = "tangential_restitution"
ball = 1
other = "plane"
tolerance = 1e-3

# NOTE: 2e-3: impulse theory takes the lever arm of the friction force as R; ours is the
# distance to the middle of the overlap, R - d/2, shorter by up to d_max/(2R) = 1.2e-3 here.
[[check]]
kind = "rebound_spin"
ball = 1
other = "plane"
tolerance = 2e-3
''' if sliding else f'''
# tan({angle} deg) = {math.tan(th):.4f} < 3.5 mu (1 + e) = {3.5 * MU * (1 + E):.4f}: the contact
# sticks for part of the impact, where rigid-body impulse theory has no closed form for a
# compliant contact; the tangential restitution and spin are shown on the Chung & Ooi page.
'''
    write(f"test4_angle{angle:02d}", f'''name = "chung_ooi_test4_angle{angle:02d}"
description = """{CITE}, test 4: an aluminium oxide sphere (R = 2.5 mm) hits a rigid plane at \\
3.9 m/s, {angle} degrees from the normal, friction 0.092, elastic (Hertz-Mindlin, no-slip \\
tangential stiffness). {'In the gross-sliding range (tan theta >= 3.5 mu (1+e)) the tangential restitution and the rebound spin follow rigid-body impulse theory.' if sliding else 'Below the gross-sliding range: normal restitution judged, tangential values shown.'}"""

[run]
duration = 1.4e-5
margin = 1e-6

{timestep(200)}
{material("aluminium_oxide")}
{RIGID}
[[contact]]
between = ["aluminium_oxide", "rigid"]
model = "hertz"
friction = {MU}
restitution = {E}

[[ball]]
pos = [0.0, 0.0, 0.002501]
radius = 0.0025
material = "aluminium_oxide"
vel = [{vt!r}, 0.0, {-vn!r}]

{plane_wall()}
[output]
series = ["interaction/1/plane/normal_force", "interaction/1/plane/shear_force", "ball/1/vel", "ball/1/spin", "dt"]

[[check]]
kind = "restitution"
ball = 1
other = "plane"
tolerance = 1e-3
{judged}
[[check]]
kind = "golden"
''')


# Tests 5, 6 and 8 with damping (issue #28): an aluminium alloy sphere (R = 0.1 m) at a normal
# speed of 0.2 m/s, friction 0.4, Hertz-Mindlin with the shear dashpot of the requested
# restitution (0.5 and 0.8): test 5 on a rigid plane with a tangential velocity, test 6 on the
# plane with an initial spin, test 8 on an equal free sphere with a relative tangential
# velocity. Gross sliding throughout (the slip speed of the contact point s at least
# (7/2) mu (1 + e) v_n, the same for the plane and for two equal spheres) makes the tangential
# impulse mu (1 + e) m* v_n: the tangential velocity after and the spin after follow
# rigid-body impulse theory (src/check/collision.rs), judged; below it the contact sticks for
# part of the impact (shown on the Chung & Ooi page beside the theory's rolling limit).
# Test 6's data are the issue's: 21 rad/s at e = 0.5 gives v_t = 0.12 m/s and spin 18 rad/s.
ALLOY, R5, VN5, MU5 = "aluminium_alloy", 0.1, 0.2, 0.4
RESTITUTIONS = (0.5, 0.8)
T5_VT = (0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.9, 1.4, 2.0)
T6_W = (0.175, 0.5, 1.0, 2.0, 3.0, 4.5, 6.0, 9.0, 14.0, 21.0)
T8_VT = T5_VT


def slides(slip, e):
    """True when a slip speed `slip` keeps the contact sliding throughout the impact."""
    return slip >= 3.5 * MU5 * (1.0 + e) * VN5


def impulse_checks(ball, other, slip, e, tolerance=1e-3, why=""):
    """The impulse-theory checks of a gross-sliding impact (none below the range)."""
    if not slides(slip, e):
        return f'''
# slip speed {slip} m/s < 3.5 mu (1 + e) v_n = {3.5 * MU5 * (1 + e) * VN5:.4f} m/s: the contact
# sticks for part of the impact; shown on the Chung & Ooi page, not judged.
'''
    return f'''{why}
[[check]]
kind = "tangential_velocity"
ball = {ball}
other = {other}
tolerance = {tolerance:.2g}

[[check]]
kind = "rebound_spin"
ball = {ball}
other = {other}
tolerance = {tolerance:.2g}
'''


def turn(vt, e):
    """Test 8's tolerance and its reason: rigid-body theory takes the impact as instantaneous,
    but two free spheres that slide past each other turn their line of centres during the
    contact, by theta = v_t t_c / (R_a + R_b) (t_c the elastic Hertz contact time, an upper
    bound of the damped one), which mixes the normal and tangential components of the
    velocities by about (v_t / v_n) theta: that, or 1e-3, whichever is larger."""
    rho, young, nu = MATERIALS[ALLOY]
    m_star = rho * 4.0 / 3.0 * math.pi * R5**3 / 2.0
    e_star = young / (2.0 * (1.0 - nu * nu))
    d_max = (15.0 * m_star * VN5**2 / (16.0 * e_star * math.sqrt(R5 / 2.0))) ** 0.4
    t_c = 2.0 * 1.4716376 * d_max / VN5
    theta = vt * t_c / (2.0 * R5)
    tol = max(1e-3, vt / VN5 * theta)
    why = (f"\n# NOTE: {tol:.2g}: impulse theory takes the impact as instantaneous; two free spheres "
           f"that slide past\n# each other turn their line of centres by theta = v_t t_c / (2R) = "
           f"{theta:.2e} rad during the\n# contact (t_c = {t_c:.3e} s, the elastic Hertz time), which "
           f"mixes normal and tangential\n# components by about (v_t/v_n) theta = {vt / VN5 * theta:.2e}")
    return tol, why


def code(x):
    """A number as it goes into a case name: 0.45 -> 0p45, 21.0 -> 21p0."""
    return f"{x:g}".replace(".", "p") if "." in f"{x:g}" else f"{x:g}p0"


def damped_case(test, tag, e, text):
    write(f"test{test}_e{int(round(e * 10)):02d}_{tag}", text)


def plane_impact(test, tag, e, what, slip, motion, slip_words=""):
    """Tests 5 and 6 with damping: the aluminium alloy sphere on the rigid plane; `what` says
    how it moves, `slip` is the slip speed of its contact point, `motion` its vel/spin lines."""
    name = f"chung_ooi_test{test}_e{int(round(e * 10)):02d}_{tag}"
    outcome = (f"Gross sliding{slip_words}: the tangential velocity after and the rebound spin follow rigid-body impulse theory."
               if slides(slip, e) else
               "The contact sticks for part of the impact: normal restitution judged, tangential values shown.")
    damped_case(test, tag, e, f'''name = "{name}"
description = """{CITE}, test {test} with damping: an aluminium alloy sphere (R = 0.1 m) {what}, \\
friction 0.4, Hertz-Mindlin with restitution {e}{' (shear dashpot in parallel with the shear spring, both within the Coulomb limit)' if test == 5 else ''}. {outcome}"""

[run]
duration = 1.2e-3
margin = 1e-6

{timestep(200)}
{material(ALLOY)}
{RIGID}
[[contact]]
between = ["{ALLOY}", "rigid"]
model = "hertz"
friction = {MU5}
restitution = {e}

[[ball]]
pos = [0.0, 0.0, 0.100001]
radius = {R5}
material = "{ALLOY}"
{motion}

{plane_wall()}
[output]
series = ["interaction/1/plane/normal_force", "interaction/1/plane/shear_force", "ball/1/vel", "ball/1/spin", "dt"]

[[check]]
kind = "restitution"
ball = 1
other = "plane"
tolerance = 1e-3
{impulse_checks(1, '"plane"', slip, e)}
[[check]]
kind = "golden"
''')


for e in RESTITUTIONS:
    for vt in T5_VT:
        plane_impact(5, f"vt{code(vt)}", e, f"""hits a rigid \\
plane at 0.2 m/s with a tangential velocity of {vt} m/s and no spin""", vt, f"vel = [{vt!r}, 0.0, {-VN5!r}]")
    for w in T6_W:
        plane_impact(6, f"w{code(w)}", e, f"""spinning at \\
{w} rad/s hits a rigid plane at 0.2 m/s with no tangential velocity""", R5 * w,
                     f"vel = [0.0, 0.0, {-VN5!r}]\nspin = [0.0, {w!r}, 0.0]", f" (R w = {R5 * w:g} m/s)")
    for vt in T8_VT:
        name = f"chung_ooi_test8_e{int(round(e * 10)):02d}_vt{code(vt)}"
        damped_case(8, f"vt{code(vt)}", e, f'''name = "{name}"
description = """{CITE}, test 8 with damping: two equal aluminium alloy spheres (R = 0.1 m) meet \\
at a relative normal speed of 0.2 m/s and a relative tangential velocity of {vt} m/s, no spin, \\
friction 0.4, Hertz-Mindlin with restitution {e}. {'Gross sliding: the relative tangential velocity after and the rebound spin of each sphere (half that of a sphere on a plane) follow rigid-body impulse theory.' if slides(vt, e) else 'The contact sticks for part of the impact: normal restitution judged, tangential values shown.'}"""

[run]
duration = 1.2e-3
margin = 1e-6

{timestep(200)}
{material(ALLOY)}
[[contact]]
between = ["{ALLOY}", "{ALLOY}"]
model = "hertz"
friction = {MU5}
restitution = {e}

[[ball]]
id = 1
pos = [0.0, 0.0, 0.0]
radius = {R5}
material = "{ALLOY}"
vel = [{vt / 2!r}, 0.0, {VN5 / 2!r}]

[[ball]]
id = 2
pos = [0.0, 0.0, 0.200001]
radius = {R5}
material = "{ALLOY}"
vel = [{-vt / 2!r}, 0.0, {-VN5 / 2!r}]

[output]
series = ["interaction/1/2/normal_force", "interaction/1/2/shear_force", "ball/1/vel", "ball/1/spin", "ball/2/vel", "ball/2/spin", "dt"]

[[check]]
kind = "restitution"
ball = 2
other = 1
tolerance = {turn(vt, e)[0]:.2g}
{impulse_checks(2, 1, vt, e, *turn(vt, e))}
[[check]]
kind = "golden"
''')
