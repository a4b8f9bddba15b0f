#!/usr/bin/env bash
# Loading time: `ballast check` (parse, validate, build the model once) of cases with N balls
# given one by one ([[ball]] tables) and generated ([[generate]] lattice), N up to 1,000,000.
# Writes the case files under target/load/ and prints one row per case: N, how the balls are
# given, the file's size, wall seconds and peak resident memory.
# Usage: benches/load/run.sh [N ...]   (default: 100000 330000 1000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
B=target/release/ballast
W=target/load
mkdir -p "$W"
NS=("$@")
[ ${#NS[@]} -eq 0 ] && NS=(100000 330000 1000000)
head='[run]
steps = 10
[timestep]
mode = "fixed"
dt = 1e-6
[material.glass]
density = 2500.0
[[contact]]
between = ["glass", "glass"]
model = "linear"
kn = 1e5'
printf '%-9s %-10s %9s %9s %10s\n' N balls "file MB" "s" "peak MiB"
for n in "${NS[@]}"; do
  side=$(python3 -c "import math; print(math.ceil($n ** (1/3)))")
  python3 - "$n" "$side" "$W/explicit_$n.toml" "$head" <<'PY'
import sys
n, side, path, head = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
with open(path, "w") as f:
    f.write(head + "\n")
    k = 0
    for i in range(side):
        for j in range(side):
            for l in range(side):
                if k == n:
                    break
                f.write(f"[[ball]]\npos = [{i*0.003}, {j*0.003}, {l*0.003}]\nradius = 0.001\nmaterial = \"glass\"\n")
                k += 1
PY
  edge=$(python3 -c "print($side * 0.003)")
  printf '%s\n[[generate]]\nkind = "lattice"\ncount = %s\nmin = [0.0, 0.0, 0.0]\nmax = [%s, %s, %s]\nradius = [0.001, 0.001]\nmaterial = "glass"\n' \
    "$head" "$n" "$edge" "$edge" "$edge" > "$W/generated_$n.toml"
  for kind in explicit generated; do
    f="$W/${kind}_$n.toml"
    /usr/bin/time -f '%e %M' -o "$W/time" "$B" check "$f" > /dev/null
    read -r s kib < "$W/time"
    printf '%-9s %-10s %9.1f %9s %10.0f\n' "$n" "$kind" "$(du -m "$f" | cut -f1)" "$s" "$(echo "$kib/1024" | bc -l)"
  done
done
echo "processor: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
