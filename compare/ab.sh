#!/usr/bin/env bash
# Interleaved A/B runs of stress binaries: each round runs every binary once, in the order given,
# so that the drift of a shared host's speed within minutes falls on all of them alike.
# Prints one line per run: the binary, its step median, the stage medians and the pairs in
# contact after the last step (equal pairs: the builds agree on the scene's outcome).
#
#   bash compare/ab.sh [--bodies N] [--mode detect|resolve] [--rounds R] [--threads T] BIN...
#
# Defaults: 64000 bodies, detect, 3 rounds, 1 thread; 300 steps after 60 warm-up steps, seed 1.
# A binary per build to compare, e.g. for the code before and after a change:
#
#   cargo build --release --example stress && cp "$CARGO_TARGET_DIR/release/examples/stress" /tmp/new
#   git stash && cargo build --release --example stress && cp ... /tmp/old && git stash pop
#   bash compare/ab.sh --mode resolve /tmp/old /tmp/new
set -euo pipefail

bodies=64000
mode=detect
rounds=3
threads=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bodies) bodies="$2"; shift 2 ;;
        --mode) mode="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --) shift; break ;;
        -*) echo "ab.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [[ $# -eq 0 ]]; then
    echo "usage: ab.sh [--bodies N] [--mode detect|resolve] [--rounds R] [--threads T] BIN..." >&2
    exit 2
fi
for bin in "$@"; do
    [[ -x "$bin" ]] || { echo "ab.sh: $bin is not an executable" >&2; exit 2; }
done

field() { grep -o "\"$1\":[0-9.]*" | cut -d: -f2; }
for round in $(seq "$rounds"); do
    for bin in "$@"; do
        out=$("$bin" --bodies "$bodies" --steps 300 --warmup 60 --threads "$threads" \
            --mode "$mode" --seed 1 --stages 2>&1)
        median=$(echo "$out" | field ms_per_step_median)
        pairs=$(echo "$out" | field overlap_pairs_last)
        stages=$(echo "$out" | grep "stage medians" | sed 's/.*(ms): //')
        echo "round $round  $bin  $bodies $mode  ${median} ms | ${stages} | pairs ${pairs}"
    done
done
