#!/usr/bin/env bash
# The `resolve` / `detect` ratio of one stress binary, from adjacent runs: each round runs
# `detect` then `resolve` (300 steps after 60 warm-up steps, seed 1), so that both fall in the
# same phase of a shared host, whose speed drifts within minutes (a full compare/run.sh run
# takes each mode minutes apart). Prints each round's medians and ratio,
# then the median of the rounds' ratios.
#
#   bash compare/ratio.sh [--bodies N] [--rounds R] [--threads T] BIN
#
# Defaults: 64000 bodies, 5 rounds, 1 thread. BIN is a release build of examples/stress:
#
#   cargo build --release --example stress
#   bash compare/ratio.sh --bodies 16000 "$CARGO_TARGET_DIR/release/examples/stress"
set -euo pipefail

bodies=64000
rounds=5
threads=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bodies) bodies="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --) shift; break ;;
        -*) echo "ratio.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [[ $# -ne 1 || ! -x "$1" ]]; then
    echo "usage: ratio.sh [--bodies N] [--rounds R] [--threads T] BIN (an executable)" >&2
    exit 2
fi
bin="$1"

median_of() {
    "$bin" --bodies "$bodies" --steps 300 --warmup 60 --threads "$threads" --mode "$1" \
        --seed 1 2>/dev/null | grep -o '"ms_per_step_median":[0-9.]*' | cut -d: -f2
}
ratios=()
for round in $(seq "$rounds"); do
    detect=$(median_of detect)
    resolve=$(median_of resolve)
    ratio=$(awk -v r="$resolve" -v d="$detect" 'BEGIN { printf "%.3f", r / d }')
    ratios+=("$ratio")
    echo "round $round  $bodies bodies, $threads thread(s)  detect $detect ms  resolve $resolve ms  ratio $ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '
    { r[NR] = $1 }
    END { m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
          printf "median ratio over %d rounds: %.3f (lowest %.3f, highest %.3f)\n", NR, m, r[1], r[NR] }'
