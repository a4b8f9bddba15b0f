#!/usr/bin/env python3
"""Instructions per particle-step and per contact-step of each contact model, counted by
callgrind: a figure that repeats to a fraction of a percent on machines whose wall times wander
by 2x from minute to minute.

    python3 benches/instructions.py                       # every model, 10k settle box
    python3 benches/instructions.py --models hertz,linear --steps 200

For each model, the settle-box case of benches/cases/ runs once (kept in target/instructions/)
to a checkpoint of the settled bed at cycle --at (10,000: the balls at rest on the floor); then
`ballast bench-one --resume` from it runs under callgrind for --warm cycles and again for --warm
+ --steps cycles, one thread. The difference of the two counts is what --steps cycles of the
settled bed cost, without the start (reading the case and the checkpoint, building the model):

- per particle-step: all instructions of those cycles over N x steps;
- per contact-step: those of the ball-ball force pass (the functions that compute the contacts'
  forces and add them to the balls: `ranges.rs`, `force/lanes/`, `law/`, `contact/`) over the
  ball-ball contact-steps (pairs touching in a cycle, as `bench-one` counts them); likewise of
  the walls' pass over the ball-facet contact-steps. The other phases (law of motion, detection,
  the rest) are printed per particle-step.

valgrind 3.19 cannot decode AVX-512, so the binary is built for x86-64-v3 (AVX2) in its own
target directory; the instruction mix differs from the native build's, the work does not.
Prints a table and writes target/instructions/results.tsv, each row with the build it counted
(`git describe --always --dirty`: the Performance page sets a side-by-side table beside the
counts of the same build only).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "instructions"
MODELS = ["hertz", "hooke", "hertz_frame", "linear", "linear_dashpot", "hysteretic", "linearbond"]
# The phase a function belongs to, by its name (callgrind_annotate names each function with
# the file of each of its lines: code inlined into a function counts as that function's).
PHASES = [
    ("walls", re.compile(r"force::walls|history_facet|ball_facet|facet_contacts|contact::full|associative|geom::")),
    ("contacts", re.compile(r"force::lanes|force::ranges|force::balls|force::stage|law::|contact::ball_ball|contact::frame|sphere_pair|springs")),
    ("motion", re.compile(r"motion::")),
    ("detect", re.compile(r"detect::|contact::merge|contact::partition|contact::contacts|renumber")),
]


def build():
    env = dict(os.environ)
    # (RUSTFLAGS replaces .cargo/config.toml's flags: x86-64-v3 for valgrind, the same interleave)
    env["RUSTFLAGS"] = "-C target-cpu=x86-64-v3 -C llvm-args=-force-vector-interleave=2"
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--bin", "ballast", "--target-dir", str(OUT)],
        cwd=ROOT, env=env, check=True)
    return OUT / "release" / "ballast"


def settled(binary, model, n_k, at):
    """A copy of the model's settle-box case that writes a checkpoint at cycle `at` and ends
    1,000 cycles later (the checkpoint belongs to the copy's text), run once."""
    src = ROOT / "benches" / "cases" / f"settle_box_{model}_{n_k}k.toml"
    if not src.exists():
        sys.exit(f"error: {src}: no such case (--models takes the names of benches/cases/)")
    dst = OUT / "cases" / src.name
    ckpt = OUT / "runs" / src.stem / "checkpoints" / f"cycle_{at}.ckpt"
    text = src.read_text()
    text = re.sub(r"(?m)^steps = \d+", f"steps = {at + 1000}", text, count=1)
    text = re.sub(r"(?m)^\[output\]\n", f"[output]\ncheckpoint_every = {at}\n", text, count=1)
    if not dst.exists() or dst.read_text() != text or not ckpt.exists():
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(text)
        print(f"  {src.stem}: running to cycle {at} for the settled checkpoint", file=sys.stderr)
        subprocess.run([str(binary), "run", str(dst), "--out", str(OUT / "runs" / src.stem)],
                       check=False, stdout=subprocess.DEVNULL)
        if not ckpt.exists():
            sys.exit(f"error: {ckpt} was not written")
    return dst, ckpt


def counted(binary, case, ckpt, steps, tag):
    """callgrind of `bench-one --resume` for `steps` cycles: (total, by phase, bench-one's JSON)."""
    out = OUT / "callgrind" / f"{case.stem}.{tag}.out"
    out.parent.mkdir(parents=True, exist_ok=True)
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         str(binary), "bench-one", str(case), "--resume", str(ckpt), "--steps", str(steps),
         "--threads", "1"],
        capture_output=True, text=True, check=True)
    result = json.loads(run.stdout.strip().splitlines()[-1])
    # exclusive counts per function, each with its file
    ann = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", str(out)],
                         capture_output=True, text=True, check=True).stdout
    total, phases = None, {p: 0 for p, _ in PHASES}
    phases["other"] = 0
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?PROGRAM TOTALS", line)
        if m:
            total = int(m.group(1).replace(",", ""))
            continue
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S+?):(\S+)", line)
        if not m or total is None:
            continue
        count, where = int(m.group(1).replace(",", "")), m.group(3)
        for phase, pattern in PHASES:
            if pattern.search(where):
                phases[phase] += count
                break
        else:
            phases["other"] += count
    return total, phases, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=",".join(MODELS), help="names of benches/cases/ (default: all)")
    ap.add_argument("--n", type=int, default=10000, help="balls: 1000, 10000 or 50000")
    ap.add_argument("--at", type=int, default=10000, help="the settled checkpoint's cycle")
    ap.add_argument("--warm", type=int, default=20, help="cycles counted and subtracted")
    ap.add_argument("--steps", type=int, default=500, help="cycles measured")
    args = ap.parse_args()
    models = [m for m in args.models.split(",") if m]
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        sys.exit(f"error: --models {','.join(unknown)}: not a settle-box model ({', '.join(MODELS)})")
    if args.steps < 1 or args.warm < 1 or args.steps + args.warm > 1000:
        sys.exit("error: --warm and --steps: at least 1 each, at most 1000 together")
    missing = [t for t in ("valgrind", "callgrind_annotate") if shutil.which(t) is None]
    if missing:
        sys.exit(f"error: {', '.join(missing)} not found (Debian: apt-get install valgrind)")
    started = time.time()
    print("building (x86-64-v3, target/instructions/)", file=sys.stderr)
    binary = build()
    commit = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    rows = []
    for model in models:
        case, ckpt = settled(binary, model, args.n // 1000, args.at)
        print(f"  {case.stem}: callgrind, {args.warm} and {args.warm + args.steps} cycles", file=sys.stderr)
        t0, p0, r0 = counted(binary, case, ckpt, args.warm, "warm")
        t1, p1, r1 = counted(binary, case, ckpt, args.warm + args.steps, "long")
        n, steps = r1["n"], args.steps
        cs = r1["contact_steps"] - r0["contact_steps"]
        fs = r1["facet_contact_steps"] - r0["facet_contact_steps"]
        d = {k: p1[k] - p0[k] for k in p1}
        rows.append({
            "model": r1["model"], "case": case.stem, "n": n, "steps": steps,
            "per_particle_step": (t1 - t0) / (n * steps),
            "contact_steps": cs, "facet_contact_steps": fs,
            "per_contact_step": d["contacts"] / cs if cs else float("nan"),
            "per_facet_contact_step": d["walls"] / fs if fs else float("nan"),
            **{f"{k}_per_particle_step": v / (n * steps) for k, v in d.items()},
            "commit": commit,
        })
    cols = ["model", "per_particle_step", "per_contact_step", "per_facet_contact_step",
            "contacts_per_particle_step", "walls_per_particle_step", "motion_per_particle_step",
            "detect_per_particle_step", "other_per_particle_step", "contact_steps",
            "facet_contact_steps", "commit"]
    head = ["model", "instr/particle-step", "instr/contact-step", "instr/facet-contact-step",
            "contacts", "walls", "motion", "detect", "other", "contact-steps", "facet-steps", "build"]
    print(f"\n{args.n} balls, {args.steps} cycles from cycle {args.at + args.warm}, one thread, "
          f"x86-64-v3 build (callgrind); per particle-step by phase:")
    print(" | ".join(head))
    for r in rows:
        print(" | ".join(str(r[c]) if isinstance(r[c], (str, int)) else f"{r[c]:.1f}" for c in cols))
    tsv = OUT / "results.tsv"
    with tsv.open("w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(str(r[c]) for c in cols) + "\n")
    print(f"\nwritten {tsv.relative_to(ROOT)} ({time.time() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
