#!/usr/bin/env python3
"""Writes the silo meshes of cases/experiments (OBJ): a cylinder of radius 20 mm and height
100 mm (normals inward), flat floors with a central circular orifice of diameter 8, 10 and
12 mm (normals up), and the Janssen column's tube (radius 10 mm, from 10 mm below the floor to
250 mm above it, so that it can slide up past the floor). Circles are regular 64-gons whose area equals the circle's (radius scaled by
sqrt(2 pi / (n sin(2 pi / n)))), so that the orifice has the area of the named diameter.

Run from this folder: python3 make_silo.py"""
import math

N = 64
R_SILO = 0.020
HEIGHT = 0.100
# a regular n-gon of circumradius a has area n a^2 sin(2 pi/n) / 2: equal area with the circle
SCALE = math.sqrt(2 * math.pi / (N * math.sin(2 * math.pi / N)))


def ring(r, z):
    return [(r * SCALE * math.cos(2 * math.pi * k / N), r * SCALE * math.sin(2 * math.pi * k / N), z) for k in range(N)]


def write(path, vertices, facets, comment):
    with open(path, "w") as f:
        f.write(f"# {comment} (written by make_silo.py)\n")
        for v in vertices:
            f.write("v {:.9f} {:.9f} {:.9f}\n".format(*v))
        for a, b, c in facets:
            f.write(f"f {a + 1} {b + 1} {c + 1}\n")


def tube(path, r, height, comment, bottom=0.0):
    """A cylinder of radius r from z = bottom to height, normals inward (counter-clockwise seen from the axis)."""
    low, high = ring(r, bottom), ring(r, height)
    facets = []
    for k in range(N):
        j = (k + 1) % N
        facets.append((k, N + k, j))
        facets.append((j, N + k, N + j))
    write(path, low + high, facets, comment)


tube("silo_wall.obj", R_SILO, HEIGHT, "silo wall: radius 20 mm, height 100 mm, normals inward")

# the floors: an annulus between the orifice and the wall, normals up (+z)
for d_mm in (8, 10, 12):
    inner, outer = ring(d_mm / 2000.0, 0.0), ring(R_SILO, 0.0)
    facets = []
    for k in range(N):
        j = (k + 1) % N
        facets.append((k, N + k, N + j))
        facets.append((k, N + j, j))
    write(f"silo_floor_d{d_mm}.obj", inner + outer, facets, f"silo floor with a {d_mm} mm orifice, normals up")

# the Janssen column
tube("janssen_tube.obj", 0.010, 0.250, "Janssen column: radius 10 mm, z from -10 to 250 mm, normals inward", bottom=-0.010)
