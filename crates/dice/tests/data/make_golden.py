#!/usr/bin/env python3
"""Golden distributions for battlemat-dice, computed with icepool's exact fractions.

Run once by hand (not at test time) and commit the output:

    python3 -m venv /tmp/icevenv && /tmp/icevenv/bin/pip install icepool
    /tmp/icevenv/bin/python crates/dice/tests/data/make_golden.py > crates/dice/tests/data/golden.json

Every expression is written twice: in Battlemat's dice notation (what tests/golden.rs
parses) and as the icepool construction that means the same thing. Probabilities are
icepool's exact fractions rounded once to the nearest double and printed with 17
significant digits, so the Rust side can compare within 1e-12.
"""

import json
import math
import sys
from fractions import Fraction

import icepool
from icepool import d

d4, d6, d8, d10, d12, d20 = d(4), d(6), d(8), d(10), d(12), d(20)


def count(die, n, pred):
    """n dice, counting those for which pred(value) holds."""
    return n @ die.map(lambda x: int(pred(x)))


def kept_count(die, n, keep_highest, k, pred):
    """Among the k highest (or lowest) of n dice, how many satisfy pred."""
    pool = die.pool(n)
    pool = pool.highest(k) if keep_highest else pool.lowest(k)
    return pool.expand().map(lambda t: sum(1 for x in t if pred(x)))


# (Battlemat notation, icepool die)
EXPRESSIONS = [
    ("3d6", 3 @ d6),
    ("2d6+1d4-2", 2 @ d6 + d4 - 2),
    ("1d4-3", d4 - 3),
    ("-1d6+1d8", -d6 + d8),
    ("d20", d20),
    ("10d10", 10 @ d10),
    ("4d6kh3", d6.pool(4).highest(3).sum()),
    ("5d10kl2", d10.pool(5).lowest(2).sum()),
    ("2d20kh1", d20.pool(2).highest(1).sum()),
    ("2d20kl1+5", d20.pool(2).lowest(1).sum() + 5),
    ("8d6k5", d6.pool(8).highest(5).sum()),
    ("d6!2", d6.explode(depth=2)),
    ("d6!1", d6.explode(depth=1)),
    ("3d6!", 3 @ d6.explode()),
    ("2d10!3+1d4", 2 @ d10.explode(depth=3) + d4),
    ("4d6!2kh3", d6.explode(depth=2).pool(4).highest(3).sum()),
    ("3d8!1kl2", d8.explode(depth=1).pool(3).lowest(2).sum()),
    ("6d6>=5", count(d6, 6, lambda x: x >= 5)),
    ("10d6>4", count(d6, 10, lambda x: x > 4)),
    ("3d8<=2", count(d8, 3, lambda x: x <= 2)),
    ("5d6<3", count(d6, 5, lambda x: x < 3)),
    ("6d6!1>=7", count(d6.explode(depth=1), 6, lambda x: x >= 7)),
    ("4d6kh3>=5", kept_count(d6, 4, True, 3, lambda x: x >= 5)),
    ("5d10kl2<4", kept_count(d10, 5, False, 2, lambda x: x < 4)),
    ("6d6>=5+2d6-1", count(d6, 6, lambda x: x >= 5) + 2 @ d6 - 1),
    # Larger ones, to pin the accumulated rounding error.
    ("100d6", 100 @ d6),
    ("20d6kh10", d6.pool(20).highest(10).sum()),
    ("12d10!2kl4", d10.explode(depth=2).pool(12).lowest(4).sum()),
    ("40d6>=6-3d20", count(d6, 40, lambda x: x >= 6) - 3 @ d20),
]

# (first side, second side): win = P(first > second).
OPPOSED = [
    ("3d6", "2d6"),
    ("2d6", "2d6"),
    ("1d6", "1d6+1d6"),
    ("2d6!1", "3d6"),
    ("4d6kh3", "3d6"),
    ("1d20+5", "2d20kh1"),
]


def fractions_of(die):
    denom = die.denominator()
    return [(int(o), Fraction(q, denom)) for o, q in die.items() if q != 0]


class F17(float):
    """A probability: the Fraction rounded once to the nearest double."""


def f17(x):
    return F17(float(x))


def number(x):
    """JSON text of a number: doubles with 17 significant digits (round-trip exact)."""
    if isinstance(x, float):
        return format(x, ".17g") if x != int(x) or abs(x) >= 1e17 else format(x, ".1f")
    return str(x)


def dump(value, indent=""):
    """JSON with one outcome pair per line, small enough to review in a diff."""
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dump(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if all(isinstance(v, (int, float)) for v in value):
            return "[" + ", ".join(number(v) for v in value) + "]"
        return "[\n" + ",\n".join(inner + dump(v, inner) for v in value) + "\n" + indent + "]"
    if isinstance(value, (int, float)):
        return number(value)
    return json.dumps(value)


def describe(notation, die):
    probs = fractions_of(die)
    mean = sum(o * p for o, p in probs)
    var = sum((o - mean) ** 2 * p for o, p in probs)
    return {
        "expr": notation,
        "mean": f17(mean),
        "sd": f17(math.sqrt(var)),
        "outcomes": [[o, f17(p)] for o, p in probs],
    }


def opposed(a_notation, b_notation):
    dies = dict(EXPRESSIONS)
    extra = {"1d6": d6, "1d6+1d6": d6 + d6, "2d6": 2 @ d6, "3d6": 3 @ d6,
             "2d6!1": 2 @ d6.explode(depth=1), "1d20+5": d20 + 5}
    dies.update(extra)
    diff = dies[a_notation] - dies[b_notation]
    probs = fractions_of(diff)
    return {
        "a": a_notation,
        "b": b_notation,
        "win": f17(sum(p for o, p in probs if o > 0)),
        "tie": f17(sum(p for o, p in probs if o == 0)),
        "lose": f17(sum(p for o, p in probs if o < 0)),
    }


def main():
    out = {
        "generator": f"crates/dice/tests/data/make_golden.py with icepool {icepool.__version__}",
        "expressions": [describe(n, die) for n, die in EXPRESSIONS],
        "opposed": [opposed(a, b) for a, b in OPPOSED],
    }
    sys.stdout.write(dump(out) + "\n")


if __name__ == "__main__":
    main()
