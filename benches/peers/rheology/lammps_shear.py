#!/usr/bin/env python3
"""LAMMPS beside ballast on a periodic Lees-Edwards shear cell (issue #63, item 5).

Reads a ballast case TOML ([domain] periodic x y z with `shear`, optional `pressure`; one or more
`[material.*]`; `[[contact]] model = "hooke-history"`; explicit `[[ball]]` entries; fixed `dt`;
`[run] steps`), writes the equivalent LAMMPS data file and input (units si, atom_style sphere,
triclinic periodic box, pair_style granular hooke + linear_history + damping velocity +
limit_damping, fix deform xz (+ z servo) remap v, fix nve/sphere), runs LAMMPS, and writes

  OUT/series.json   time series: t, strain, stress xx yy zz xy yz xz (Pa, compression positive,
                    ballast's domain/stress convention), box lx ly lz and tilt xz, solid fraction
  OUT/summary.json  steady state over the last half of the run: block means (10 blocks) and the
                    standard error of the block means, of p = sigma_zz, mean normal stress,
                    mu = -sigma_xz / sigma_zz, phi, I = rate d_mean / sqrt(p / rho)

  python3 lammps_shear.py CASE.toml --out DIR [--lmp lmp] [--no-run]
  python3 lammps_shear.py CASE.toml --ballast BALLAST_OUT/series.csv [--out DIR]
      (the same steady-state estimator applied to a ballast run's series.csv)

See README.md for how each part of ballast's hooke-history law maps to LAMMPS and what differs.
"""
import argparse, csv, json, math, os, shutil, subprocess, sys, time, tomllib

AXES = {"x": 0, "y": 1, "z": 2}


def load_case(path):
    with open(path, "rb") as f:
        case = tomllib.load(f)
    dom = case.get("domain") or sys.exit("case has no [domain]")
    if sorted(dom.get("periodic", [])) != ["x", "y", "z"]:
        sys.exit("only fully periodic 3D cells are handled (periodic = [x, y, z])")
    sh = dom.get("shear") or sys.exit("case has no [domain] shear")
    if sh.get("flow", "x") != "x" or sh.get("gradient", "z") != "z":
        sys.exit("only flow = x, gradient = z is handled (LAMMPS tilt xz)")
    pr = dom.get("pressure")
    if pr is not None and pr.get("axis", "z") != "z":
        sys.exit("only pressure axis = z is handled")
    if "ball" not in case:
        sys.exit("explicit [[ball]] entries are needed ([[generate]] is not handled)")
    ts = case.get("timestep", {})
    if ts.get("mode", "fixed") != "fixed":
        sys.exit("only [timestep] mode = fixed is handled")
    g = case.get("run", {}).get("gravity", [0.0, 0.0, 0.0])
    if any(abs(x) > 0 for x in g):
        sys.exit("gravity must be zero")
    return case


def contact_params(c):
    if c.get("model") != "hooke-history":
        sys.exit(f"contact model {c.get('model')!r}: only hooke-history is mapped")
    lim = c.get("friction_limit", "total")
    if lim != "total":
        print(f"warning: friction_limit = {lim!r} has no LAMMPS linear_history equivalent; "
              "LAMMPS bounds the total (spring + dashpot) force", file=sys.stderr)
    kn = float(c["kn"])
    return dict(kn=kn, kt=float(c.get("ks", kn)), gn=float(c.get("gamma_n", 0.0)),
                gt=float(c.get("gamma_t", 0.0)), mu=float(c.get("friction", 0.0)), limit=lim)


def write_lammps(case, work, every):
    dom = case["domain"]
    lo, hi = [float(x) for x in dom["min"]], [float(x) for x in dom["max"]]
    L = [hi[i] - lo[i] for i in range(3)]
    sh = dom["shear"]
    rate = float(sh["rate"])
    pr = dom.get("pressure")
    mats = list(case["material"].keys())
    mtype = {m: i + 1 for i, m in enumerate(mats)}
    dens = {m: float(case["material"][m]["density"]) for m in mats}
    balls = case["ball"]
    dt = float(case["timestep"]["dt"])
    steps = int(case["run"]["steps"])
    vsol = sum(4.0 / 3.0 * math.pi * float(b["radius"]) ** 3 for b in balls)
    rmax = max(float(b["radius"]) for b in balls)

    # data file
    dl = ["LAMMPS data file written by benches/peers/rheology/lammps_shear.py", "",
          f"{len(balls)} atoms", f"{len(mats)} atom types", "",
          f"{lo[0]!r} {hi[0]!r} xlo xhi", f"{lo[1]!r} {hi[1]!r} ylo yhi", f"{lo[2]!r} {hi[2]!r} zlo zhi",
          "0.0 0.0 0.0 xy xz yz", "", "Atoms # sphere", ""]
    for k, b in enumerate(balls):
        p = b["pos"]
        dl.append(f"{int(b.get('id', k + 1))} {mtype[b['material']]} {2 * float(b['radius'])!r} "
                  f"{dens[b['material']]!r} {float(p[0])!r} {float(p[1])!r} {float(p[2])!r}")
    dl += ["", "Velocities", ""]
    for k, b in enumerate(balls):
        v = b.get("vel", [0.0, 0.0, 0.0])
        w = b.get("angvel", b.get("omega", b.get("spin", [0.0, 0.0, 0.0])))
        dl.append(f"{int(b.get('id', k + 1))} {float(v[0])!r} {float(v[1])!r} {float(v[2])!r} "
                  f"{float(w[0])!r} {float(w[1])!r} {float(w[2])!r}")
    open(os.path.join(work, "data.lmp"), "w").write("\n".join(dl) + "\n")

    # contact laws
    coeffs = []
    for c in case["contact"]:
        cp = contact_params(c)
        a, b = c.get("between", [mats[0], mats[0]])
        i, j = sorted((mtype[a], mtype[b]))
        xg = cp["gt"] / cp["gn"] if cp["gn"] > 0 else 0.0
        if cp["gn"] == 0 and cp["gt"] > 0:
            sys.exit("gamma_t > 0 with gamma_n = 0 cannot be written as LAMMPS's xgammat * eta_n")
        coeffs.append(f"pair_coeff {i} {j} hooke {cp['kn']!r} {cp['gn']!r} "
                      f"tangential linear_history {cp['kt']!r} {xg!r} {cp['mu']!r} "
                      f"damping velocity limit_damping")
    skin = 0.2 * 2 * rmax
    vol0 = L[0] * L[1] * L[2]
    s = []
    w = s.append
    w("# written by benches/peers/rheology/lammps_shear.py from a ballast case")
    w("units si")
    w("atom_style sphere")
    w("atom_modify map array")
    w("dimension 3")
    w("boundary p p p")
    w("comm_modify vel yes")
    w("read_data data.lmp")
    w(f"neighbor {skin!r} bin")
    w("neigh_modify delay 0 every 1 check yes")
    w("pair_style granular")
    s.extend(coeffs)
    w(f"timestep {dt!r}")
    w("fix integ all nve/sphere")
    w(f"variable rate equal {rate!r}")
    w(f"variable L0z equal {L[2]!r}")
    # stress: virial (contact) part from compute pressure NULL virial (compression positive, LAMMPS
    # order xx yy zz xy xz yz) + kinetic part relative to the imposed flow rate (z - middle)
    w("compute pv all pressure NULL virial")
    w("variable zmid equal 0.5*(zlo+zhi)")
    w("variable ux atom vx-v_rate*(z-v_zmid)")
    for nm, f in [("kxx", "v_ux*v_ux"), ("kyy", "vy*vy"), ("kzz", "vz*vz"),
                  ("kxy", "v_ux*vy"), ("kxz", "v_ux*vz"), ("kyz", "vy*vz")]:
        w(f"variable {nm} atom mass*{f}")
    w("compute kin all reduce sum v_kxx v_kyy v_kzz v_kxy v_kxz v_kyz")
    w("variable sxx equal c_pv[1]+c_kin[1]/vol")
    w("variable syy equal c_pv[2]+c_kin[2]/vol")
    w("variable szz equal c_pv[3]+c_kin[3]/vol")
    w("variable sxy equal c_pv[4]+c_kin[4]/vol")
    w("variable sxz equal c_pv[5]+c_kin[5]/vol")
    w("variable syz equal c_pv[6]+c_kin[6]/vol")
    w(f"variable phi equal {vsol!r}/vol")
    w("variable strain equal v_rate*time")
    w("variable t equal time")
    # Lees-Edwards: tilt xz grows at rate * lz (the image one length up moves at U = rate lz);
    # written as a variable so that the rate stays `rate` when lz changes under the servo.
    # fix deform VARIABLE style: target = start + del; del = (current - start) + dt * rate_of_change
    # makes it integrate the rate step by step.
    w("variable rxz equal v_rate*lz")
    w("variable dxz equal xz+dt*v_rxz")  # tilt starts at 0
    deform = "fix def all deform 1 xz variable v_dxz v_rxz"
    if pr is not None:
        target = float(pr["target"])
        gain = float(pr.get("gain", 1e-3))
        mr = float(pr.get("max_rate", 1.0))
        win = int(pr.get("window", 100))
        # servo (our reading of SPEC 6.1, see README): strain rate along z =
        # clamp(gain * (sigma_zz - target), +/- max_rate), sigma_zz averaged over the last `win` steps
        w(f"fix pz all ave/time 1 1 1 v_szz ave window {win}")
        w(f"variable ez0 equal {gain!r}*(f_pz-{target!r})")
        w(f"variable ez equal 0.5*(abs(v_ez0+{mr!r})-abs(v_ez0-{mr!r}))")  # clamp to +/- max_rate
        w("variable rz equal lz*v_ez")
        w("variable dz equal lz-v_L0z+dt*v_rz")
        deform += " z variable v_dz v_rz"
    deform += " remap v flip yes"
    w(deform)
    w(f"fix out all ave/time {every} 1 {every} v_t v_strain v_sxx v_syy v_szz v_sxy v_syz v_sxz "
      f"v_phi file series.txt format ' %.12g'")
    w("variable lxv equal lx")
    w("variable lyv equal ly")
    w("variable lzv equal lz")
    w("variable xzv equal xz")
    w(f"fix box all ave/time {every} 1 {every} v_lxv v_lyv v_lzv v_xzv file box.txt format ' %.12g'")
    w("thermo_style custom step time v_strain v_szz v_sxz v_phi lz xz")
    w(f"thermo {max(every, steps // 20)}")
    w(f"run {steps}")
    open(os.path.join(work, "in.shear"), "w").write("\n".join(s) + "\n")
    meta = dict(rate=rate, steps=steps, dt=dt, n=len(balls), vsol=vsol,
                d_mean=sum(2 * float(b["radius"]) for b in balls) / len(balls),
                rho=sum(dens[b["material"]] * float(b["radius"]) ** 3 for b in balls)
                / sum(float(b["radius"]) ** 3 for b in balls),
                pressure=pr, vol0=vol0)
    return meta


def read_ave_time(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        rows.append([float(x) for x in line.split()])
    return rows


def steady(series, meta, nblocks=10):
    """Block means over the last half (by time) and the standard error of the block means."""
    t = series["t"]
    tend = t[-1]
    idx = [i for i, x in enumerate(t) if x >= 0.5 * tend]
    nb = min(nblocks, len(idx))
    blocks = [idx[k * len(idx) // nb:(k + 1) * len(idx) // nb] for k in range(nb)]
    rate, d, rho = meta["rate"], meta["d_mean"], meta["rho"]

    def bm(f):
        return [f(b) for b in blocks if b]

    def mean(key, b):
        return sum(series[key][i] for i in b) / len(b)

    q = {
        "p_zz": bm(lambda b: mean("szz", b)),
        "p_mean": bm(lambda b: (mean("sxx", b) + mean("syy", b) + mean("szz", b)) / 3),
        "sigma_xz": bm(lambda b: mean("sxz", b)),
        "mu": bm(lambda b: -mean("sxz", b) / mean("szz", b)),
        "phi": bm(lambda b: mean("phi", b)),
        "I": bm(lambda b: rate * d / math.sqrt(mean("szz", b) / rho)),
        "lz": bm(lambda b: mean("lz", b)) if "lz" in series else [],
    }
    out = {}
    for k, v in q.items():
        if not v:
            continue
        m = sum(v) / len(v)
        se = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v)) if len(v) > 1 else float("nan")
        out[k] = {"mean": m, "stderr": se}
    out["window"] = {"t_from": t[idx[0]], "t_to": tend, "samples": len(idx), "blocks": nb,
                     "strain_from": series["strain"][idx[0]] if "strain" in series else None,
                     "strain_to": series["strain"][-1] if "strain" in series else None}
    out["conventions"] = ("stress compression positive (ballast domain/stress); p = sigma_zz "
                          "(normal stress along the gradient axis); mu = -sigma_xz/sigma_zz per block; "
                          "I = rate d_mean / sqrt(p/rho) per block; error = standard error of the block means")
    out["meta"] = {k: meta[k] for k in ("rate", "d_mean", "rho", "n", "steps", "dt")}
    return out


def print_summary(tag, s):
    def f(k, scale=1.0, fmt="{:.4g}"):
        if k not in s:
            return "-"
        return (fmt + " +/- " + fmt).format(s[k]["mean"] * scale, s[k]["stderr"] * scale)
    w = s["window"]
    print(f"{tag}: steady state over t = {w['t_from']:.4g}..{w['t_to']:.4g} s "
          f"({w['samples']} samples, {w['blocks']} blocks)")
    print(f"  p = sigma_zz  = {f('p_zz')} Pa   (mean normal stress {f('p_mean')} Pa)")
    print(f"  mu = -sxz/szz = {f('mu')}")
    print(f"  phi           = {f('phi')}")
    print(f"  I             = {f('I')}")
    if "wall_s" in s:
        print(f"  wall time     = {s['wall_s']:.1f} s")


def ballast_series(path, meta):
    rows = list(csv.DictReader(open(path)))
    g = lambda k: [float(r[k]) for r in rows]
    se = {"t": g("t"), "sxx": g("domain/stress.xx"), "syy": g("domain/stress.yy"),
          "szz": g("domain/stress.zz"), "sxy": g("domain/stress.xy"), "syz": g("domain/stress.yz"),
          "sxz": g("domain/stress.xz"), "phi": g("domain/solid_fraction")}
    if "domain/strain" in rows[0]:
        se["strain"] = g("domain/strain")
    if "domain/size.z" in rows[0]:
        se["lz"] = g("domain/size.z")
    return se


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case")
    ap.add_argument("--out", default=None)
    ap.add_argument("--lmp", default=None, help="LAMMPS binary (default: lmp, lmp_serial or lmp_stable on PATH)")
    ap.add_argument("--records", type=int, default=None, help="samples in the series (default: the case's [output] every, else 1000)")
    ap.add_argument("--no-run", action="store_true", help="write the LAMMPS files only")
    ap.add_argument("--ballast", default=None, help="summarize this ballast series.csv instead of running LAMMPS")
    a = ap.parse_args()
    case = load_case(a.case)
    name = case.get("name", os.path.basename(a.case).removesuffix(".toml"))
    out = a.out or os.path.join("out", name + ("_ballast" if a.ballast else "_lammps"))
    os.makedirs(out, exist_ok=True)
    steps = int(case["run"]["steps"])
    every = case.get("output", {}).get("every") if a.records is None else max(1, steps // a.records)
    every = int(every or max(1, steps // 1000))
    meta = write_lammps(case, out, every)
    if a.ballast:
        se = ballast_series(a.ballast, meta)
        s = steady(se, meta)
        json.dump(s, open(os.path.join(out, "summary.json"), "w"), indent=1)
        print_summary(f"ballast {name}", s)
        return
    for f in (os.path.join(out, "series.txt"), os.path.join(out, "box.txt")):
        if os.path.exists(f):
            os.remove(f)
    if a.no_run:
        print(f"wrote {out}/data.lmp and {out}/in.shear")
        return
    lmp = a.lmp or next((b for b in ("lmp", "lmp_serial", "lmp_stable") if shutil.which(b)), None)
    if lmp is None:
        sys.exit("no LAMMPS binary found (apt-get install lammps)")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    t0 = time.time()
    r = subprocess.run([lmp, "-in", "in.shear", "-log", "log.lammps", "-screen", "none"], cwd=out, env=env)
    wall = time.time() - t0
    if r.returncode != 0:
        sys.exit(f"LAMMPS failed (exit {r.returncode}); see {out}/log.lammps")
    rows = read_ave_time(os.path.join(out, "series.txt"))
    box = read_ave_time(os.path.join(out, "box.txt"))
    cols = ["step", "t", "strain", "sxx", "syy", "szz", "sxy", "syz", "sxz", "phi"]
    se = {c: [r[i] for r in rows] for i, c in enumerate(cols)}
    for i, c in enumerate(["step", "lx", "ly", "lz", "xz"]):
        se[c] = [r[i] for r in box]
    json.dump(se, open(os.path.join(out, "series.json"), "w"))
    s = steady(se, meta)
    s["wall_s"] = wall
    ver = open(os.path.join(out, "log.lammps")).readline().strip()
    s["lammps"] = ver
    s["pressure_control"] = meta["pressure"]
    json.dump(s, open(os.path.join(out, "summary.json"), "w"), indent=1)
    print_summary(f"LAMMPS {name} ({ver})", s)


if __name__ == "__main__":
    main()
