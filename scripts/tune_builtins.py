"""The recipe behind the ``tuned`` built-ins: one tuning run per game with decisions.

For each game, ``weighted`` is tuned by CMA-ES from its default weights against the game's
target opponents (the issue "Tuned players": Parade 2 players vs greedy, Gift of Tulips 4
players vs three majority, Joker Marbles 4 players vs three greedy, Wig Out! 4 players vs
three greedy), then re-measured on held-out deals. Each run's record (configuration, winner,
held-out share, history) goes to ``docs/tuning/<game>.json`` and its convergence figure to
``docs/tuning/<game>.png``; the winner is printed as the ``TUNED_WEIGHTS`` line to put in
``montecards/games/<game>/strategies.py``.

    python scripts/tune_builtins.py [--game parade ...] [--budget N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import montecards as mc  # noqa: E402
from montecards.plots import save  # noqa: E402

PLANS = {
    "parade": {"players": 2, "opponents": "greedy"},
    "tulips": {"players": 4, "opponents": "majority"},
    "marbles": {"players": 4, "opponents": "greedy"},
    "wigout": {"players": 4, "opponents": "greedy"},
}
SEED = 20_261_201


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", nargs="*", default=list(PLANS))
    parser.add_argument("--budget", type=int, default=None, help="games per search (default: mc.tune's)")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--holdout", type=int, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    out = ROOT / "docs" / "tuning"
    out.mkdir(exist_ok=True)
    for game in args.game:
        plan = dict(PLANS[game])
        for key in ("budget", "deals", "holdout"):
            if getattr(args, key) is not None:
                plan[key] = getattr(args, key)
        res = mc.tune(game, strategy="weighted", seed=args.seed, checkpoint=out / f".{game}.npz", **plan)
        print(res.text(), flush=True)
        record = res.to_dict()
        record["command"] = " ".join(["python", "scripts/tune_builtins.py", *sys.argv[1:]])
        (out / f"{game}.json").write_text(json.dumps(record, indent=1))
        save(res.plot(), out / f"{game}.png")
        print(f"TUNED_WEIGHTS = {tuple(float(w) for w in res.best)!r}  # exactly the weights held out\n", flush=True)
        (out / f".{game}.npz").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
