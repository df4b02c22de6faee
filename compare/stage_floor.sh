#!/usr/bin/env bash
# Compares two stress builds stage by stage by the floor of their step times. Both run the same
# deterministic scene, writing every step's stage times (STRESS_STAGE_SAMPLES, see
# examples/stress/stages.rs); for each build, step and stage, the fastest of the rounds is
# kept, and those are summed over the steps. A shared host mostly adds time to a step, so the
# fastest of several rounds is near the step's own cost: the sums compare the two builds' code
# more closely than medians (compare/side_by_side.sh), which carry each round's load.
#
# By default the two run at the same time, one on each core, swapping cores every round (as
# compare/side_by_side.sh does): the host's slow phases, which last longer than a round, then
# slow both alike. `--core C` runs them in turns on core C instead (A B, then B A, ...), each
# alone on the machine. Both builds must run the same scene: the same results step by step, as
# builds of the same step do.
#
#   bash compare/stage_floor.sh [--bodies N] [--mode detect|resolve] [--rounds R] [--core C] A B
#
# Defaults: 16000 bodies, resolve, 10 rounds, 1 thread each; 300 steps after 60 warm-up steps,
# seed 1. Prints each stage's summed floor for A and B (milliseconds over all steps) and B/A,
# then the whole step's (the sum of the stages).
set -euo pipefail

bodies=16000
mode=resolve
rounds=10
core=
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bodies) bodies="$2"; shift 2 ;;
        --mode) mode="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --core) core="$2"; shift 2 ;;
        --) shift; break ;;
        -*) echo "stage_floor.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [[ $# -ne 2 || ! -x "$1" || ! -x "$2" ]]; then
    echo "usage: stage_floor.sh [--bodies N] [--mode M] [--rounds R] [--core C] A B" >&2
    exit 2
fi
command -v taskset >/dev/null || { echo "stage_floor.sh: needs taskset (util-linux)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() { # binary label round core
    STRESS_STAGE_SAMPLES="$out/$2.$3" taskset -c "$4" "$1" --bodies "$bodies" --steps 300 \
        --warmup 60 --threads 1 --mode "$mode" --seed 1 --stages >"$out/log.$2" 2>&1 ||
        { cat "$out/log.$2" >&2; exit 1; }
    [[ -s "$out/$2.$3" ]] || { echo "stage_floor.sh: $1 wrote no stage samples" >&2; exit 1; }
}
for round in $(seq "$rounds"); do
    if [[ -z $core ]]; then
        # Each build on each core, and started first, equally often.
        if ((round % 2)); then a_core=0 b_core=1; else a_core=1 b_core=0; fi
        if (((round - 1) / 2 % 2)); then
            run "$2" b "$round" "$b_core" & first=$!
            run "$1" a "$round" "$a_core" & second=$!
        else
            run "$1" a "$round" "$a_core" & first=$!
            run "$2" b "$round" "$b_core" & second=$!
        fi
        wait "$first" || { kill "$second" 2>/dev/null; wait; exit 1; }
        wait "$second" || exit 1
    elif ((round % 2)); then
        run "$1" a "$round" "$core"
        run "$2" b "$round" "$core"
    else
        run "$2" b "$round" "$core"
        run "$1" a "$round" "$core"
    fi
done

awk -v rounds="$rounds" '
    FNR == 1 { split(FILENAME, parts, "/"); build = substr(parts[length(parts)], 1, 1); step = 0 }
    /^#/ { for (i = 2; i <= NF; i++) name[i - 1] = $i; stages = NF - 1; next }
    {
        step++
        for (s = 1; s <= NF; s++) {
            key = build SUBSEP step SUBSEP s
            if (!(key in floor) || $s < floor[key]) floor[key] = $s
        }
        if (step > steps) steps = step
    }
    END {
        printf "%d rounds, %d steps; summed floors (ms)\n", rounds, steps
        printf "%-10s %10s %10s %7s\n", "stage", "A", "B", "B/A"
        for (s = 1; s <= stages + 1; s++) {
            a = 0; b = 0
            for (k = 1; k <= steps; k++) {
                for (t = 1; t <= stages; t++) {
                    if (s <= stages && t != s) continue
                    a += floor["a" SUBSEP k SUBSEP t]
                    b += floor["b" SUBSEP k SUBSEP t]
                }
            }
            printf "%-10s %10.2f %10.2f %7.3f\n", (s <= stages ? name[s] : "step"), a, b, b / a
        }
    }' "$out"/a.* "$out"/b.*
