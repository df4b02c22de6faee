#!/usr/bin/env python3
"""Compares the answers of the `--queries` runs (see examples/stress/queries.rs) written to a
directory: for each N and query kind, how often each peer agrees with bevy_sat.

Rays and shape casts agree when both miss, or both hit the same body at distances within 1e-3.
A hit at distance 0 (a solid ray or a shape starting inside bodies that overlap) may name any
of the bodies it starts in: such answers are counted as agreeing on the distance alone, and
reported apart. Point queries agree when the sets of bodies containing the point are equal.

usage: queries.py DIR
"""
import glob
import os
import sys


def read(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f]


def cast(line):
    if line == "-":
        return None
    index, distance = line.split()
    return int(index), float(distance)


def main():
    folder = sys.argv[1]
    ns = sorted({int(p.rsplit("_", 1)[1][:-4]) for p in glob.glob(os.path.join(folder, "bevy_sat_*_*.txt"))})
    for n in ns:
        for kind in ["rays", "shapes", "points"]:
            base = os.path.join(folder, f"bevy_sat_{kind}_{n}.txt")
            ours = read(base)
            for peer in ["avian2d", "bevy_rapier2d"]:
                path = os.path.join(folder, f"{peer}_{kind}_{n}.txt")
                if not os.path.exists(path):
                    continue
                theirs = read(path)
                same = at_zero = differ = 0
                examples = []
                for k, (a, b) in enumerate(zip(ours, theirs)):
                    if kind == "points":
                        ok = a == b
                        zero = False
                    else:
                        a, b = cast(a), cast(b)
                        if a is None or b is None:
                            ok, zero = a is None and b is None, False
                        else:
                            close = abs(a[1] - b[1]) <= 1e-3
                            ok = close and a[0] == b[0]
                            zero = close and not ok and a[1] <= 1e-3
                    if ok:
                        same += 1
                    elif zero:
                        at_zero += 1
                    else:
                        differ += 1
                        if len(examples) < 3:
                            examples.append((k, a, b))
                total = len(ours)
                print(f"N={n} {kind:6} {peer:13}: {same}/{total} same, {at_zero} same distance 0 "
                      f"(another body it starts in), {differ} differ"
                      + (f"; e.g. {examples}" if examples else ""))


if __name__ == "__main__":
    main()
