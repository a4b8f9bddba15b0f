#!/usr/bin/env python3
"""Weak-scaling model of ballast's runs over ranks (docs/RANKS.md, "Where it stops scaling").

Usage:  python3 benches/ranks/scaling.py [benches/ranks/work/results.tsv]

Takes from the measured table of benches/ranks/peers.sh (the 50,000-ball settle box):
  - the time of one step on one rank (ballast, 1 rank),
  - per ghost and step, the bytes the ranks sent each other (forwards and migrations),
  - the exchanges per step (each an all-to-all over every rank in this design),
and extrapolates to P ranks of n = 50,000 balls each (weak scaling) on a cluster interconnect.

Assumptions (stated, not measured here): each rank's brick is a cube in a dense packing
(solid fraction 0.6 of 2 mm spheres), interior ranks have ghosts on all 26 sides within the
halo h = 2 (r + margin) = 2.2 mm; a message costs a latency of 1.5 us and 10 GB/s of bandwidth
(InfiniBand EDR-class); an all-to-all costs P - 1 messages on each rank (pairwise, as
MPI_Alltoallv does for sparse counts); a record of the series gathers the whole model on every
rank (0.5 kB a ball) every 1,000 steps (the case's `every`).
"""
import csv
import math
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "benches/ranks/work/results.tsv"
rows = list(csv.DictReader(open(path), delimiter="\t"))
one = next(r for r in rows if r["code"] == "ballast" and r["ranks"] == "1")
two = next(r for r in rows if r["code"] == "ballast-mpi" and r["ranks"] == "2")
N1 = 50_000
t_step = N1 / (float(one["Mps_s"]) * 1e6)
ghosts_2 = float(two["ghosts"]) * N1  # ghosts summed over the 2 ranks
bytes_per_ghost = float(two["bytes_per_step"]) / ghosts_2
exchanges = float(two["exchanges_per_step"])

alpha, beta = 1.5e-6, 10e9  # s per message, bytes per s
d, r, margin, phi = 2e-3, 1e-3, 1e-4, 0.6
rho = phi / (math.pi * d**3 / 6)  # balls per m^3
h = 2 * (r + margin)
L = (N1 / rho) ** (1 / 3)
ghosts = ((L + 2 * h) ** 3 - L**3) * rho  # an interior rank's, all 26 sides
record_every, ball_bytes = 1000, 500

print(f"measured: one step of 50,000 balls on one rank {t_step * 1e3:.2f} ms; "
      f"{bytes_per_ghost:.0f} bytes per ghost and step; {exchanges:.2f} exchanges per step")
print(f"model: brick side {L * 1e3:.1f} mm, {ghosts:,.0f} ghosts per rank "
      f"({ghosts / N1:.1%} of its balls), {ghosts * bytes_per_ghost / 1e3:.0f} kB sent per step")
print(f"{'P':>5} {'balls':>12} {'halo ms':>8} {'all-to-all ms':>13} {'gather ms':>9} "
      f"{'efficiency':>10} {'neighbours, no gather':>21} {'gather GB/rank':>14}")
for P in (2, 64, 1024):
    n_total = N1 * P
    halo = ghosts * bytes_per_ghost / beta
    all_to_all = exchanges * (P - 1) * alpha
    # (every rank receives the whole model at each record)
    gather = n_total * ball_bytes / beta / record_every
    t = t_step + halo + all_to_all + gather
    # the same with exchanges between the (at most 26) neighbours and reductions in log2 P steps
    nb = t_step + halo + (min(26, P - 1) + math.log2(P)) * alpha * exchanges
    print(f"{P:>5} {n_total:>12,} {halo * 1e3:>8.3f} {all_to_all * 1e3:>13.3f} {gather * 1e3:>9.3f} "
          f"{t_step / t:>10.0%} {t_step / nb:>21.0%} {n_total * ball_bytes / 1e9:>14.1f}")
