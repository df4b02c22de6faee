#!/usr/bin/env bash
# Two stress binaries run at the same time, one on each core (`taskset`), swapping cores every
# round: both see the same phase of a shared host, whose speed drifts within minutes, which
# sequential rounds (compare/ab.sh) cannot cancel. They share the L3 cache and memory
# bandwidth while they run, so the figures are those of a loaded machine: use it to compare
# two builds, not to quote a step time. The cores differ by a few percent, so read rounds in
# pairs (each build once on each core). Prints each round's step medians with every
# stage's median (prepare, broad, narrow, resolve, write-back), and B/A.
#
#   bash compare/side_by_side.sh [--bodies N] [--mode detect|resolve] [--rounds R] A B
#
# Defaults: 64000 bodies, resolve, 4 rounds, 1 thread each; 300 steps after 60 warm-up
# steps, seed 1. Even the same binary as A and B differs by a few percent in one round: believe
# a difference that holds over several quiet rounds. Getting the two binaries: see
# compare/ab.sh.
set -euo pipefail

bodies=64000
mode=resolve
rounds=4
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bodies) bodies="$2"; shift 2 ;;
        --mode) mode="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --) shift; break ;;
        -*) echo "side_by_side.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [[ $# -ne 2 || ! -x "$1" || ! -x "$2" ]]; then
    echo "usage: side_by_side.sh [--bodies N] [--mode M] [--rounds R] A B (executables)" >&2
    exit 2
fi
command -v taskset >/dev/null || { echo "side_by_side.sh: needs taskset (util-linux)" >&2; exit 2; }
a_bin="$1"
b_bin="$2"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() { # core binary output
    taskset -c "$1" "$2" --bodies "$bodies" --steps 300 --warmup 60 --threads 1 \
        --mode "$mode" --seed 1 --stages >"$3" 2>&1
}
median() { grep -o '"ms_per_step_median":[0-9.]*' "$1" | cut -d: -f2; }
stages() { grep -o "prepare [0-9.]*, broad [0-9.]*, narrow [0-9.]*, resolve [0-9.]*, writeback [0-9.]*" "$1"; }
for round in $(seq "$rounds"); do
    if ((round % 2)); then a_core=0 b_core=1; else a_core=1 b_core=0; fi
    run "$a_core" "$a_bin" "$out/a" &
    run "$b_core" "$b_bin" "$out/b" &
    wait
    a=$(median "$out/a")
    b=$(median "$out/b")
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
    echo "round $round  A (core $a_core) $a ms ($(stages "$out/a"))  B (core $b_core) $b ms ($(stages "$out/b"))  B/A $ratio"
done
