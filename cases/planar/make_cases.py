#!/usr/bin/env python3
"""Writes the 2D (dim = 2) cases. Run from this folder: python3 make_cases.py.

A disk has unit thickness: mass m = rho pi r^2 (kg per metre), moment of inertia m r^2 / 2.
References are derived here in plain Python."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from energy_checks import save  # noqa: E402  (the energy_balance check of each case)
import math

RHO, G = 2500.0, 9.81

HEAD = """# Written by make_cases.py: edit the script, not this file.
name = "{name}"
description = \"\"\"{description}\"\"\"
"""
MAT = """
[material.glass]
density = 2500.0

[material.steel]
density = 7800.0

[[contact]]
between = ["*", "*"]
model = "linear"
kn = {kn!r}
ks = {ks!r}
friction = {mu!r}
damp_n = {dn!r}
damp_s = {ds!r}
"""


def disk_mass(r):
    m = RHO * math.pi * r * r
    return m, 0.5 * m * r * r


def collision():
    disks = [(1, [0.0, 0.0], 0.01, [0.5, 0.05], 0.0), (2, [0.025, 0.006], 0.012, [0.0, 0.0], 20.0)]
    series = ["ball/1/pos", "ball/1/vel", "ball/1/spin", "ball/2/pos", "ball/2/vel", "ball/2/spin", "interaction/1/2/normal_force", "interaction/1/2/shear_force"]
    compared = ["ball/1/pos.x", "ball/1/pos.y", "ball/1/vel.x", "ball/1/vel.y", "ball/1/spin.z", "ball/2/vel.x", "ball/2/vel.y", "ball/2/spin.z", "interaction/1/2/normal_force", "interaction/1/2/shear_force"]
    mat = MAT.format(kn=1e5, ks=5e4, mu=0.3, dn=0.1, ds=0.1)
    run = """
[run]
duration = 0.04
gravity = {g}

[timestep]
mode = "fixed"
dt = 2e-6
"""
    d2 = HEAD.format(name="two_disks_2d", description=(
        "Two disks (radii 1 and 1.2 cm, unit thickness) collide obliquely in the 2D mode: disk 1 moves at "
        "(0.5, 0.05) m/s, disk 2 spins at 20 rad/s; linear contact with friction 0.3 (it slides). The 2D "
        "force-displacement law (src/contact/ball_ball.rs, update_2d: F_C = F_n n + F_s q, moments from the "
        "contact point) must give the same series as the 3D engine on spheres confined to the plane "
        "(two_disks_3d: z, rx, ry fixed, the disks' masses and inertias given)."))
    d2 += "dim = 2\n" + run.format(g="[0.0, 0.0]") + mat
    d3 = HEAD.format(name="two_disks_3d", description=(
        "The collision of two_disks_2d built in 3D: spheres in the plane z = 0 with z, rx and ry fixed and the "
        "disks' mass and moment of inertia given (m = rho pi r^2, I = m r^2/2); the 3D contact law with its "
        "local frame (Woo's L6Geom) instead of the 2D one."))
    d3 += run.format(g="[0.0, 0.0, 0.0]") + mat
    for (i, p, r, v, w) in disks:
        m, I = disk_mass(r)
        d2 += f"""
[[ball]]
id = {i}
pos = [{p[0]!r}, {p[1]!r}]
radius = {r!r}
material = "glass"
vel = [{v[0]!r}, {v[1]!r}]
spin = {w!r}
"""
        d3 += f"""
[[ball]]
id = {i}
pos = [{p[0]!r}, {p[1]!r}, 0.0]
radius = {r!r}
material = "glass"
vel = [{v[0]!r}, {v[1]!r}, 0.0]
spin = [0.0, 0.0, {w!r}]
fix = ["z", "rx", "ry"]
mass = {m!r}
inertia = {I!r}
"""
    out = f"""
[output]
every = 20
series = {series!r}
""".replace("'", '"')
    d2 += out
    d3 += out
    for s in compared:
        d2 += f"""
[[check]]
kind = "same_series"
series = "{s}"
case = "two_disks_3d.toml"
tolerance = 1e-9
"""
    save("two_disks_2d.toml", d2)
    save("two_disks_3d.toml", d3)


def column():
    n, r, kn = 4, 0.01, 1e5
    m, _ = disk_mass(r)
    text = HEAD.format(name="disk_column_2d", description=(
        f"A column of {n} disks (radius {r} m, unit thickness, m = rho pi r^2 = {m:.6e} kg/m) on a floor under "
        f"gravity -y comes to rest (linear kn = {kn} N/m, half of critical damping). At rest the contact below "
        "disk k carries the weight of the disks above it and itself: overlap = (n - k + 1) m g / kn."))
    text += "dim = 2\n"
    text += f"""
[run]
duration = 3.0
gravity = [0.0, -9.81]

[timestep]
mode = "auto"
safety = 0.5
""" + MAT.format(kn=kn, ks=kn, mu=0.5, dn=0.5, ds=0.5)
    for k in range(n):
        text += f"""
[[ball]]
id = {k + 1}
pos = [0.0, {r + 2 * r * k!r}]
radius = {r!r}
material = "glass"
"""
    text += """
[[wall]]
name = "floor"
material = "steel"
plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 1.0, 0.0], size = [0.1, 0.02], divisions = [1, 1] }
"""
    series = ["interaction/1/floor/overlap"] + [f"interaction/{k}/{k + 1}/overlap" for k in range(1, n)] + [f"ball/{n}/pos", "dt"]
    text += f"""
[output]
every = 20
series = {series!r}
""".replace("'", '"')
    text += f"""
[[check]]
kind = "final_value"
series = "interaction/1/floor/overlap"
expected = {n * m * G / kn!r}
tolerance = 1e-6
formula = "U = {n} m g / kn: the floor carries the whole column"
"""
    for k in range(1, n):
        text += f"""
[[check]]
kind = "final_value"
series = "interaction/{k}/{k + 1}/overlap"
expected = {(n - k) * m * G / kn!r}
tolerance = 1e-6
formula = "U = {n - k} m g / kn: the weight of the {n - k} disk(s) above"
"""
    save("disk_column_2d.toml", text)


def critical():
    r, kn, ks, U = 0.01, 1e5, 8e4, 1e-6
    m, I = disk_mass(r)
    a = r - U / 2  # lever arm: the contact point is the middle of the overlap U
    # a disk between two fixed disks on the x axis: K = diag(2 kn, 2 ks, 2 ks a^2) (hand derivation:
    # the shear displacements at the contacts are v + a theta and v - a theta)
    w2 = max(2 * kn / m, 2 * ks / m, 2 * ks * a * a / I)
    exact = 2 / math.sqrt(w2)
    text = HEAD.format(name="critical_2d", description=(
        f"A disk (radius {r} m, unit thickness) touching two fixed disks on either side along x, in the 2D mode. "
        "Its 3 DOFs (u, v, theta) are uncoupled: K = diag(2 kn, 2 ks, 2 ks a^2) with M = diag(m, m, m r^2/2), so "
        f"omega_max^2 = max(2kn/m, 2ks/m, 2ks a^2/I) with the lever arm a = r - U/2 (overlap U = 1 um) and the exact critical step 2/omega_max = {exact:.9e} s. The "
        "eigen-analysis of the assembled 2D stiffness must find it; the diagonal estimate is judged against it."))
    text += "dim = 2\n" + f"""
[run]
steps = 10
gravity = [0.0, 0.0]

[timestep]
mode = "auto"
safety = 0.5
""" + MAT.format(kn=kn, ks=ks, mu=0.5, dn=0.0, ds=0.0)
    for i, x, fix in [(1, -2 * r + U, True), (2, 0.0, False), (3, 2 * r - U, True)]:
        text += f"""
[[ball]]
id = {i}
pos = [{x!r}, 0.0]
radius = {r!r}
material = "glass"
""" + ('fix = ["x", "y", "rz"]\n' if fix else "")
    text += f"""
[[check]]
kind = "critical_timestep"
at_step = 0
exact = {exact!r}
exact_tolerance = 1e-9
formula = "omega_max^2 = max(2 kn/m, 2 ks/m, 2 ks a^2 / (m r^2/2)) = {w2:.9e} 1/s^2, a = r - U/2 = {a!r} m, m = rho pi r^2 = {m:.9e} kg/m"
"""
    save("critical_2d.toml", text)


collision()
column()
critical()
