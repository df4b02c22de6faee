#!/usr/bin/env bash
# The spatial-query comparison: bevy_sat (examples/stress --queries), avian2d and bevy_rapier2d
# (this crate's stress_avian / stress_rapier --queries) answer the same 10,000 rays, shape casts
# and point queries on the stress scene (detect mode, after WARMUP steps). Each round runs every
# N and, at each, the three engines one after the other; the table gives, per query kind, the
# median over the rounds of each engine's median time per query, and the answers of the last
# round are compared (compare/queries.py). The last column gives, per round, the faster peer's
# time over bevy_sat's: the median and the range over the rounds. The growth table gives each
# engine's time at the largest N over that at the one before: the ratio of the medians, then
# within each round, the median and the range over the rounds.
#
# Environment (defaults in brackets):
#   NS        bodies to run                  ["16000 64000"]
#   ROUNDS    rounds                         [3]
#   WARMUP    steps before the queries       [2]
#   SEED      scene and query seed           [1]
#   ANSWERS   directory for the answers      [a new temporary directory]
#   SKIP_BUILD=1, SAT_RELEASE_DIR, COMPARE_TARGET_DIR as in run.sh (the release build of
#   bevy_sat goes to SAT_RELEASE_DIR [$HOME/.cache/bevy_sat-release]).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
NS="${NS:-16000 64000}"
ROUNDS="${ROUNDS:-3}"
WARMUP="${WARMUP:-2}"
SEED="${SEED:-1}"
ANSWERS="${ANSWERS:-$(mktemp -d)}"
SAT_RELEASE_DIR="${SAT_RELEASE_DIR:-$HOME/.cache/bevy_sat-release}"
COMPARE_TARGET_DIR="${COMPARE_TARGET_DIR:-$HOME/.cache/bevy_sat-compare-target}"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    (cd "$root" && CARGO_TARGET_DIR="$SAT_RELEASE_DIR" cargo build --release --example stress)
    (cd "$here" && CARGO_TARGET_DIR="$COMPARE_TARGET_DIR" cargo build --release --bins)
fi

# Without a build, refuse a bevy_sat binary older than its sources: it would time other code.
if [[ "${SKIP_BUILD:-0}" == 1 ]]; then
    binary="$SAT_RELEASE_DIR/release/examples/stress"
    newer="$(find "$root/crates" "$root/examples" "$root/Cargo.toml" "$root/Cargo.lock" \
        -type f -newer "$binary" -print -quit 2>/dev/null || true)"
    if [[ ! -x "$binary" || -n "$newer" ]]; then
        echo "queries.sh: $binary is missing or older than ${newer:-the sources}; build it first" >&2
        exit 1
    fi
fi

lines="$ANSWERS/lines.jsonl"
: > "$lines"
# Each round runs every N, so that a round's figures at the different sizes are taken a minute
# or so apart, whatever the machine does between rounds (the growth per 4x N is worked out
# within each round).
for _ in $(seq "$ROUNDS"); do
    for n in $NS; do
        args=(--queries --answers "$ANSWERS" --bodies "$n" --warmup "$WARMUP" --steps 1 --mode detect --seed "$SEED")
        "$SAT_RELEASE_DIR/release/examples/stress" "${args[@]}" >> "$lines"
        "$COMPARE_TARGET_DIR/release/stress_avian" "${args[@]}" >> "$lines"
        "$COMPARE_TARGET_DIR/release/stress_rapier" "${args[@]}" >> "$lines"
    done
done

python3 - "$lines" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
times, builds = {}, {}
for r in rows:
    if r["queries"] == "index_build":
        builds.setdefault(r["bodies"], []).append((r["build_ms_median"], r["step_ms_median"], r.get("huge_pages_mib")))
    else:
        times.setdefault((r["bodies"], r["queries"], r["engine"]), []).append(r["us_per_query_median"])
print("| N | query | bevy_sat µs | avian2d µs | bevy_rapier2d µs | faster peer / bevy_sat | per round: median (range) |")
print("|---:|---|---:|---:|---:|---:|---:|")
ns = sorted({k[0] for k in times})
for n in ns:
    for kind in ["rays", "shapes", "points"]:
        m = {e: statistics.median(times[(n, kind, e)]) for e in ["bevy_sat", "avian2d", "bevy_rapier2d"] if (n, kind, e) in times}
        peer = min(m.get("avian2d", float("inf")), m.get("bevy_rapier2d", float("inf")))
        # Each round runs the three engines one after the other: the ratio within a round
        # compares times taken minutes apart at most, whatever the machine does between rounds.
        rounds = list(zip(*(times.get((n, kind, e), []) for e in ["bevy_sat", "avian2d", "bevy_rapier2d"])))
        paired = sorted(min(a, r) / s for s, a, r in rounds)
        per_round = (f"{statistics.median(paired):.2f} ({paired[0]:.2f}–{paired[-1]:.2f})"
                     if paired else "")
        print(f"| {n} | {kind} | {m.get('bevy_sat', float('nan')):.3f} | {m.get('avian2d', float('nan')):.3f} "
              f"| {m.get('bevy_rapier2d', float('nan')):.3f} | {peer / m['bevy_sat']:.2f} | {per_round} |")
print()
# The growth from the second largest N to the largest: the ratio of the medians, and within
# each round (the rounds run every N one after the other): median (range).
if len(ns) >= 2:
    print("| growth per 4x N | rays | shapes | points |")
    print("|---|---:|---:|---:|")
    for engine in ["bevy_sat", "avian2d", "bevy_rapier2d"]:
        cells = []
        for kind in ["rays", "shapes", "points"]:
            small, large = times.get((ns[-2], kind, engine)), times.get((ns[-1], kind, engine))
            if not small or not large:
                cells.append("")
                continue
            within = sorted(b / a for a, b in zip(small, large))
            cells.append(f"{statistics.median(large) / statistics.median(small):.2f}; "
                         f"{statistics.median(within):.2f} ({within[0]:.2f}–{within[-1]:.2f})")
        print(f"| {engine} | " + " | ".join(cells) + " |")
for n, b in sorted(builds.items()):
    build = statistics.median(x[0] for x in b)
    step = statistics.median(x[1] for x in b)
    huge = [x[2] for x in b if x[2] is not None]
    pages = f"; bevy_sat's memory on huge pages {min(huge):.1f}–{max(huge):.1f} MiB" if huge else ""
    print(f"index build at {n}: {build:.3f} ms after a step of {step:.3f} ms ({100 * build / step:.1f}%){pages}")
PY
echo
python3 "$here/queries.py" "$ANSWERS"
