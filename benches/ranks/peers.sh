#!/usr/bin/env bash
# One rank and two beside LIGGGHTS and LAMMPS on the same ranks in the same hour: the settle-box
# scene (benches/peers/SCENE.md, Hooke), N = 50,000 by default, 20,000 steps. Not part of CI
# (about 16 minutes on 2 cores). Needs the build with MPI (cargo build --release --features mpi)
# and Debian's liggghts, lammps and openmpi-bin (installed when missing).
#
# Usage:  benches/ranks/peers.sh                    # N = 50,000, 20,000 steps
#         N=10000 STEPS=5000 benches/ranks/peers.sh # a quick look
#         ORDER="2 1" benches/ranks/peers.sh        # the runs on 2 ranks first
#
# Each code runs on 1 process, then on 2 (mpirun, the same flags for all three), and the three
# codes take turns, so that a slow spell of the machine falls on each alike. ballast runs
# `bench-one` (one process, one thread), `mpirun -np 2 bench-one` (MPI processes) and
# `bench-one --ranks 2` (threads of one process); its runs must end in one fingerprint. Rows go
# to benches/ranks/work/results.tsv; the table is printed at the end.
set -euo pipefail
cd "$(dirname "$0")"
N=${N:-50000}
STEPS=${STEPS:-20000}
ORDER=${ORDER:-"1 2"}
WORK=work
PEERS=../peers
mkdir -p "$WORK/logs"
if ! command -v liggghts > /dev/null || ! command -v lmp > /dev/null; then
  SUDO=""; [ "$(id -u)" != 0 ] && SUDO=sudo
  $SUDO apt-get install -y -q liggghts lammps openmpi-bin > /dev/null
fi
MPIRUN=(mpirun --mca mpi_yield_when_idle 1)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
BALLAST=../../target/release/ballast
CASE=../cases/settle_box_hooke_$((N / 1000))k.toml
DATA=$WORK/scene_N$N.data
[ -f "$DATA" ] || python3 "$PEERS/gen_scene.py" "$N" "$WORK" > /dev/null
OUT=$WORK/results.tsv
printf 'code\tranks\tloop_s\tMps_s\tpp\tmean_z\tghosts\tbytes_per_step\texchanges_per_step\timbalance\tfingerprint\n' > "$OUT"

peer() { # code ranks: runs LIGGGHTS or LAMMPS, appends its row
  local code=$1 np=$2 cmd input
  if [ "$code" = liggghts ]; then cmd=(liggghts); input=$PEERS/in.hooke; else cmd=(lmp); input=$PEERS/in.hooke.lammps; fi
  [ "$np" = 1 ] || cmd=("${MPIRUN[@]}" -np "$np" "${cmd[@]}")
  local log=$WORK/logs/${code}_np$np.out
  "${cmd[@]}" -in "$input" -var data "$DATA" -var steps "$STEPS" -log none -nocite < /dev/null > "$log" 2>&1
  local loop; loop=$(awk '/^Loop time of/{print $4}' "$log")
  read -r pp mz < <(awk -v s="$STEPS" '$1==s && NF==7 {print $3,$7}' "$log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t\t\t\t\t\n' "$code" "$np" "$loop" "$(python3 -c "print($N*$STEPS/$loop/1e6)")" "$pp" "$mz" >> "$OUT"
}

ours() { # label ranks command...: runs ballast's bench-one, appends its row
  local label=$1 np=$2; shift 2
  "$@" > "$WORK/logs/$label.json"
  python3 - "$WORK/logs/$label.json" "$label" "$np" >> "$OUT" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
print("\t".join(map(str, [sys.argv[2], sys.argv[3], r["loop_s"], r["particle_steps_per_s"] / 1e6, r.get("pp", ""),
                          r.get("mean_z", ""), r.get("ghost_fraction", ""), r.get("bytes_per_step", ""),
                          r.get("exchanges_per_step", ""), r.get("imbalance", ""), r["fingerprint"]])))
PY
}

for np in $ORDER; do
  if [ "$np" = 1 ]; then
    ours ballast 1 "$BALLAST" bench-one "$CASE" --steps "$STEPS" --threads 1
  else
    ours ballast-mpi 2 "${MPIRUN[@]}" -np 2 "$BALLAST" bench-one "$CASE" --steps "$STEPS"
  fi
  peer liggghts "$np"
  peer lammps "$np"
  [ "$np" = 1 ] || ours ballast-threads 2 "$BALLAST" bench-one "$CASE" --steps "$STEPS" --ranks 2
  echo "done: $np"
done

python3 - "$OUT" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
one = {r["code"].split("-")[0]: float(r["Mps_s"]) for r in rows if r["ranks"] == "1"}
print(f"{'code':<16} {'ranks':>5} {'Mps/s':>8} {'speed-up':>8} {'pp':>7} {'mean z (mm)':>11} {'ghosts':>7} {'kB/step':>8} {'exch/step':>9}")
for r in rows:
    base = one[r["code"].split("-")[0]]
    g = f"{float(r['ghosts']):.3f}" if r["ghosts"] else ""
    kb = f"{float(r['bytes_per_step']) / 1e3:.1f}" if r["bytes_per_step"] else ""
    ex = f"{float(r['exchanges_per_step']):.2f}" if r["exchanges_per_step"] else ""
    mz = f"{float(r['mean_z']) * 1e3:.4f}" if r["mean_z"] else ""
    print(f"{r['code']:<16} {r['ranks']:>5} {float(r['Mps_s']):>8.3f} {float(r['Mps_s']) / base:>8.2f} {r['pp']:>7} {mz:>11} {g:>7} {kb:>8} {ex:>9}")
fp = {r["fingerprint"] for r in rows if r["code"].startswith("ballast")}
print(f"ballast fingerprints: {sorted(fp)} ({'the same' if len(fp) == 1 else 'DIFFER'})")
PY
