#!/usr/bin/env bash
# The stress comparison: bevy_sat (examples/stress, both modes) against avian2d 0.7 and
# bevy_rapier2d 0.36 (this crate's stress_avian / stress_rapier, detect mode: their moving
# bodies are kinematic and never resolved), on the stress scene of docs/benchmarks.md.
#
# Builds the three binaries in release, runs them for every N and thread count, writes the JSON
# lines to compare/results.jsonl and prints a markdown table, the ratio of the faster peer's
# median to bevy_sat's detect median, and each engine's growth factor per 4x N.
#
# Environment (defaults in brackets):
#   NS            bodies to run                          ["1000 4000 16000 64000"]
#   THREADS       compute-pool thread counts             ["1 2"]
#   STEPS         timed steps per run                    [300]
#   WARMUP        untimed steps before timing            [60]
#   SEED          scene seed                             [1]
#   STEPS_<N>     timed steps for that N only, e.g. STEPS_64000=60 when a peer would take
#                 too long at 64k; the JSON line records the steps used
#   WARMUP_<N>    warmup steps for that N only, e.g. WARMUP_64000=10
#   ENGINES       which engines to run                   ["bevy_sat avian2d bevy_rapier2d"]
#   RUN_TIMEOUT   seconds after which a single run is killed and skipped (0: never)  [0]
#   RESULTS       output file                            [compare/results.jsonl]
#   SKIP_BUILD=1  do not build (use the existing binaries)
#   TABLE_ONLY=1  only print the tables from an existing RESULTS file
#   SAT_TARGET_DIR      target dir of the main workspace [$HOME/.cache/bevy_sat-target]
#   COMPARE_TARGET_DIR  target dir of this crate          [$HOME/.cache/bevy_sat-compare-target]
#
# Note: started_events_total counts events over warmup + timed steps, so it is only comparable
# between runs with the same STEPS and WARMUP.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

NS="${NS:-1000 4000 16000 64000}"
THREADS="${THREADS:-1 2}"
STEPS="${STEPS:-300}"
WARMUP="${WARMUP:-60}"
SEED="${SEED:-1}"
ENGINES="${ENGINES:-bevy_sat avian2d bevy_rapier2d}"
RUN_TIMEOUT="${RUN_TIMEOUT:-0}"
RESULTS="${RESULTS:-$here/results.jsonl}"
SAT_TARGET_DIR="${SAT_TARGET_DIR:-$HOME/.cache/bevy_sat-target}"
COMPARE_TARGET_DIR="${COMPARE_TARGET_DIR:-$HOME/.cache/bevy_sat-compare-target}"

sat_bin="$SAT_TARGET_DIR/release/examples/stress"
avian_bin="$COMPARE_TARGET_DIR/release/stress_avian"
rapier_bin="$COMPARE_TARGET_DIR/release/stress_rapier"

print_tables() {
    python3 - "$RESULTS" <<'PY'
import json
import sys

rows = []
with open(sys.argv[1]) as f:
    for line in f:
        line = line.strip()
        if line.startswith("{"):
            rows.append(json.loads(line))
if not rows:
    print("no results")
    sys.exit(0)

order = {"bevy_sat": 0, "avian2d": 1, "bevy_rapier2d": 2}
rows.sort(key=lambda r: (r["bodies"], r["threads"], order.get(r["engine"], 9), r["mode"]))

print("| engine | mode | N | threads | steps | median ms | mean ms | overlap_pairs_last | started_events_total |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    print(f"| {r['engine']} | {r['mode']} | {r['bodies']} | {r['threads']} | {r['steps']} "
          f"| {r['ms_per_step_median']:.3f} | {r['ms_per_step_mean']:.3f} "
          f"| {r['overlap_pairs_last']} | {r['started_events_total']} |")

# The last result for each (engine, mode, N, threads).
best = {}
for r in rows:
    best[(r["engine"], r["mode"], r["bodies"], r["threads"])] = r

print()
print("Faster peer's median / bevy_sat detect median (> 1: bevy_sat is faster):")
print()
print("| N | threads | bevy_sat detect ms | faster peer | peer ms | ratio |")
print("|---:|---:|---:|---|---:|---:|")
for n, t in sorted({(k[2], k[3]) for k in best}):
    sat = best.get(("bevy_sat", "detect", n, t))
    peers = [best[k] for k in best if k[2] == n and k[3] == t and k[0] != "bevy_sat"]
    if not sat or not peers:
        continue
    peer = min(peers, key=lambda r: r["ms_per_step_median"])
    ratio = peer["ms_per_step_median"] / sat["ms_per_step_median"]
    print(f"| {n} | {t} | {sat['ms_per_step_median']:.3f} | {peer['engine']} "
          f"| {peer['ms_per_step_median']:.3f} | {ratio:.2f} |")

print()
print("Growth of the median per 4x N (4.0 is linear):")
print()
print("| engine | mode | threads | N/4 -> N | growth |")
print("|---|---|---:|---|---:|")
for (engine, mode, n, t), r in sorted(best.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1], kv[0][3], kv[0][2])):
    prev = best.get((engine, mode, n // 4, t))
    if prev and n % 4 == 0 and prev["ms_per_step_median"] > 0:
        growth = r["ms_per_step_median"] / prev["ms_per_step_median"]
        print(f"| {engine} | {mode} | {t} | {n // 4} -> {n} | {growth:.2f} |")
PY
}

if [[ "${TABLE_ONLY:-0}" == 1 ]]; then
    print_tables
    exit 0
fi

wants() { [[ " $ENGINES " == *" $1 "* ]]; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    if wants bevy_sat; then
        echo "building bevy_sat's stress example (target: $SAT_TARGET_DIR)" >&2
        (cd "$root" && CARGO_TARGET_DIR="$SAT_TARGET_DIR" cargo build --release --example stress)
    fi
    if wants avian2d || wants bevy_rapier2d; then
        echo "building stress_avian and stress_rapier (target: $COMPARE_TARGET_DIR)" >&2
        (cd "$here" && CARGO_TARGET_DIR="$COMPARE_TARGET_DIR" cargo build --release --bins)
    fi
fi

: > "$RESULTS"

run() {
    local label="$1"
    shift
    echo "running $label: $*" >&2
    local line status=0
    if [[ "$RUN_TIMEOUT" != 0 ]]; then
        line="$(timeout "$RUN_TIMEOUT" "$@")" || status=$?
    else
        line="$("$@")" || status=$?
    fi
    if [[ $status != 0 ]]; then
        echo "  $label failed or timed out (exit $status); skipped" >&2
        return 0
    fi
    echo "  $line" >&2
    echo "$line" >> "$RESULTS"
}

for n in $NS; do
    steps_var="STEPS_$n"
    warmup_var="WARMUP_$n"
    steps="${!steps_var:-$STEPS}"
    warmup="${!warmup_var:-$WARMUP}"
    for t in $THREADS; do
        args=(--bodies "$n" --steps "$steps" --warmup "$warmup" --threads "$t" --seed "$SEED")
        if wants bevy_sat; then
            run "bevy_sat detect" "$sat_bin" "${args[@]}" --mode detect
            run "bevy_sat resolve" "$sat_bin" "${args[@]}" --mode resolve
        fi
        if wants avian2d; then
            run "avian2d" "$avian_bin" "${args[@]}" --mode detect
        fi
        if wants bevy_rapier2d; then
            run "bevy_rapier2d" "$rapier_bin" "${args[@]}" --mode detect
        fi
    done
done

echo "results: $RESULTS" >&2
echo
print_tables
