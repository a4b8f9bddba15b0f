#!/bin/sh
# LAMMPS on a ballast shear-cell case: ./run.sh CASE.toml [OUTDIR]
# Prints the steady-state summary (p = sigma_zz, mu, phi, I with block standard errors) and the wall time.
set -e
here=$(cd "$(dirname "$0")" && pwd)
case_file=$1
[ -n "$case_file" ] || { echo "usage: $0 CASE.toml [OUTDIR]" >&2; exit 2; }
out=${2:-out/$(basename "$case_file" .toml)_lammps}
start=$(date +%s.%N)
python3 "$here/lammps_shear.py" "$case_file" --out "$out"
end=$(date +%s.%N)
echo "run.sh wall time: $(echo "$end - $start" | bc) s (LAMMPS: $(grep -m1 '^LAMMPS' "$out/log.lammps"))"
