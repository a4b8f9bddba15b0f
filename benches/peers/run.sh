#!/usr/bin/env bash
# Runs the settle-box scene (SCENE.md) in LIGGGHTS and in ballast in one go and writes the table
# with the ratio ballast / LIGGGHTS. Not part of CI (about 30 min for the full plan on 2 cores).
#
# Usage:  benches/peers/run.sh                 # N = 1,000 10,000 50,000; hertz and hooke; 1 and 2
#         NS="1000" STEPS=2000 benches/peers/run.sh   # a quick look
#         SCENE=drum benches/peers/run.sh      # the wall-heavy drum (N = 10,000, Hertz; in.drum)
# Env:    NS (sizes), MODELS (hertz hooke), PARS (1 2: processes / threads), STEPS (20000),
#         SCENE (settle-box, or drum: its rows are named drum-hertz)
#
# LIGGGHTS comes from Debian's packages; it is installed when missing (apt-get install -y liggghts
# openmpi-bin). in.hertz, in.hooke and gen_scene.py are the reference inputs of ../shared/bench
# (copied here with SCENE.md and RESULTS.md). Each LIGGGHTS run is wrapped in /usr/bin/time -v; its
# "Loop time" is the loop's wall time. ballast runs `ballast bench-one` (loop wall time, its own
# final state). Rows go to benches/peers/work/results.tsv; the table is printed at the end.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-"1000 10000 50000"}
MODELS=${MODELS:-"hertz hooke"}
PARS=${PARS:-"1 2"}
STEPS=${STEPS:-20000}
SCENE=${SCENE:-settle-box}
if [ "$SCENE" = drum ]; then
  NS=10000; MODELS=hertz
fi
WORK=work
mkdir -p "$WORK/logs"

if ! command -v liggghts > /dev/null; then
  echo "LIGGGHTS is missing: installing it from Debian's packages"
  SUDO=""; [ "$(id -u)" != 0 ] && SUDO=sudo
  $SUDO apt-get update -q && $SUDO apt-get install -y -q liggghts openmpi-bin
fi
MPIRUN=(mpirun --mca mpi_yield_when_idle 1)   # busy-polling ranks are 2-10x slower here (RESULTS.md)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)

(cd ../.. && cargo build --release -q)
BALLAST=../../target/release/ballast
OUT=$WORK/results.tsv
# (machine: the processor, as `ballast bench-one` records it, on ballast's rows; both codes
# run on it, one after the other; commit: the build ballast ran, as benches/instructions.py
# records it, so that the Performance page sets each table beside the counts of its build)
COMMIT=$(git -C ../.. describe --always --dirty --abbrev=7 2> /dev/null || true)
printf 'code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\tmachine\tcommit\n' > "$OUT"

for n in $NS; do
  [ -f "$WORK/scene_N$n.data" ] || python3 gen_scene.py "$n" "$WORK" > /dev/null
  for model in $MODELS; do
    for par in $PARS; do
      tag="${model}_N${n}_p${par}"
      input=(-in "in.$model"); label=$model; case_file="../cases/settle_box_${model}_$((n / 1000))k.toml"
      if [ "$SCENE" = drum ]; then
        [ -f "$WORK/drum.stl" ] || (cd ../cases && python3 make_drum.py --ascii "../peers/$WORK/drum.stl")
        input=(-in in.drum -var mesh "$WORK/drum.stl"); label="drum-$model"; tag="drum_$tag"
        case_file="../cases/drum_${model}_$((n / 1000))k.toml"
      fi
      if [ "$par" = 1 ]; then cmd=(liggghts); else cmd=("${MPIRUN[@]}" -np "$par" liggghts); fi
      /usr/bin/time -v -o "$WORK/logs/liggghts_$tag.time" "${cmd[@]}" "${input[@]}" \
          -var data "$WORK/scene_N$n.data" -var steps "$STEPS" -log none -nocite < /dev/null > "$WORK/logs/liggghts_$tag.out" 2>&1
      loop=$(awk '/^Loop time of/{print $4}' "$WORK/logs/liggghts_$tag.out")
      read -r pp nw ket ker mz < <(awk -v s="$STEPS" '$1==s && NF==7 {print $3,$4,$5,$6,$7}' "$WORK/logs/liggghts_$tag.out")
      rss=$(awk -F': ' '/Maximum resident set size/{print $2}' "$WORK/logs/liggghts_$tag.time")
      mps=$(python3 -c "print($n*$STEPS/$loop/1e6)")
      printf 'liggghts\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\t\n' "$label" "$n" "$STEPS" "$par" "$loop" "$mps" "$pp" "$nw" "$ket" "$mz" "$rss" >> "$OUT"
      json=$("$BALLAST" bench-one "$case_file" --steps "$STEPS" --threads "$par")
      python3 - "$json" "$label" "$n" "$STEPS" "$par" "$COMMIT" >> "$OUT" <<'PY'
import json, sys
r = json.loads(sys.argv[1]); model, n, steps, par, commit = sys.argv[2:]
print("\t".join(map(str, ["ballast", model, n, steps, par, r["loop_s"], r["particle_steps_per_s"] / 1e6,
                          r["pp"], r["nw"], r["ke_trans"], r["mean_z"], r["peak_rss_kib"],
                          r.get("machine", ""), commit])))
PY
      echo "done: $label N=$n par=$par"
    done
  done
done

python3 - "$OUT" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
key = lambda r: (r["model"], r["N"], r["par"])
lig = {key(r): r for r in rows if r["code"] == "liggghts"}
print(f"{'model':<6} {'N':>6} {'par':>3} {'LIGGGHTS Mps/s':>15} {'ballast Mps/s':>14} {'ratio':>6} {'pp L/b':>14} {'mean z L/b (mm)':>18}")
for r in rows:
    if r["code"] != "ballast":
        continue
    l = lig[key(r)]
    print(f"{r['model']:<6} {r['N']:>6} {r['par']:>3} {float(l['Mps_s']):>15.3f} {float(r['Mps_s']):>14.3f} "
          f"{float(r['Mps_s']) / float(l['Mps_s']):>6.2f} {l['pp'] + '/' + r['pp']:>14} "
          f"{float(l['mean_z']) * 1e3:>8.4f}/{float(r['mean_z']) * 1e3:<8.4f}")
PY
