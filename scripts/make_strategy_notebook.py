"""Write reports/your_strategy.ipynb (unexecuted; tests/test_notebook.py runs it).

    python scripts/make_strategy_notebook.py
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent

cells = [
    new_markdown_cell(
        "# Your own strategy\n\n"
        "From a first Parade strategy to a matchup against `greedy` with intervals. A strategy is one "
        "function `choose(obs, legal, params, memory, rng) -> int` over the game's decision interface "
        "(`docs/strategies.md`): it sees what its seat may see (`obs`), the legal moves (`legal`), and "
        "returns the index of the move it makes. montecards compiles it with numba and runs it inside "
        "the game kernels, at close to built-in speed.\n\n"
        "`N` is small so the notebook runs in seconds; raise it for real answers."
    ),
    new_code_cell(
        "import numpy as np\n"
        "import montecards as mc\n"
        "from montecards.games import parade\n"
        "from montecards.games.parade import view\nfrom montecards.games.parade.cards import label\n\n"
        "N = 4_000      # deals per comparison: raise for narrower intervals\n"
        "SEED = 11"
    ),
    new_markdown_cell(
        "## 1. Look at a decision\n"
        "`parade.decisions` replays one game of a run and shows every decision as the interface "
        "shows it: the seat, its observation, the legal moves (card ids for a play) and what its "
        "strategy chose. `view` reads the observation by name."
    ),
    new_code_cell(
        "d = parade.decisions(seed=SEED, index=0, players=2, params=None, strategy_names=['greedy', 'greedy'])[6]\n"
        "print('seat', view.obs_seat(d.obs), 'turn', view.obs_turns(d.obs), 'draw pile', view.obs_draw_pile(d.obs))\n"
        "print('parade:', [label(view.obs_parade_card(d.obs, i)) for i in range(view.obs_parade_size(d.obs))])\n"
        "print('legal plays:', [label(view.move_card(m)) for m in d.legal], '-> greedy chose', d.choice)"
    ),
    new_markdown_cell(
        "## 2. Write a strategy\n"
        "Play the card that takes the fewest cards from the parade (the rules: the cards before the "
        "last *value* ones are in removal mode; those of the played colour or of a value up to the "
        "played one are taken). At the final discard, take the first legal pair. It is plain Python: "
        "try it on the logged decision before running it."
    ),
    new_code_cell(
        "@mc.strategy(\"parade\")\n"
        "def fewest(obs, legal, params, memory, rng):\n"
        "    if view.obs_kind(obs) == view.DECISION_DISCARD:\n"
        "        return 0\n"
        "    best, least = 0, 99\n"
        "    for i in range(len(legal)):\n"
        "        card = view.move_card(legal[i])\n"
        "        value = view.value_of(card)\n"
        "        taken = 0\n"
        "        for k in range(max(view.obs_parade_size(obs) - value, 0)):\n"
        "            other = view.obs_parade_card(obs, k)\n"
        "            if view.colour_of(other) == view.colour_of(card) or view.value_of(other) <= value:\n"
        "                taken += 1\n"
        "        if taken < least:\n"
        "            best, least = i, taken\n"
        "    return best\n\n"
        "fewest(d.obs, d.legal, np.zeros(0), np.zeros(8), np.zeros(4, np.uint64))"
    ),
    new_markdown_cell(
        "## 3. Run it against `greedy`\n"
        "Any built-in and any user strategy mix freely, one per seat. The first call compiles the "
        "kernel that calls user strategies (once per machine: numba caches it) and the strategy "
        "itself (about a second)."
    ),
    new_code_cell(
        "res = mc.simulate(\"parade\", n=N, strategies=[fewest, \"greedy\"], seed=SEED)\n"
        "res"
    ),
    new_markdown_cell(
        "## 4. A fair comparison: every seating, common deals\n"
        "One run confounds the strategy with the seat. `matchups` plays every deal once per seat "
        "rotation (the same deals for every pair: common random numbers) and gives each head-to-head "
        "share with its 95 % interval."
    ),
    new_code_cell(
        "from montecards.analysis.matchups import matchups\n\n"
        "table = matchups(\"parade\", [fewest, \"greedy\", \"random\"], n=N, seed=SEED)\n"
        "table"
    ),
    new_code_cell("table.plot()"),
    new_markdown_cell(
        "## 5. Weights: tune a strategy without recompiling\n"
        "`montecards/strategies/parade_weighted.py` (the `weighted` built-in over the interface) scores "
        "a play by `params[0] * (its score change) + params[1] * (cards it takes) + ...`; with "
        "`[-1, -w]` that is greedy's score plus a price `w` per card taken. `params` are run-time "
        "data: every weight below reuses the same compiled code. Each point is a head-to-head "
        "share against `greedy` over both seatings, with its interval. (To search weights "
        "rather than sweep one, see `mc.tune` in docs/tuning.md.)"
    ),
    new_code_cell(
        "import matplotlib.pyplot as plt\n\n"
        "weighted = mc.load_strategy(\"montecards/strategies/parade_weighted.py:choose\")\n"
        "weights = [0.0, 0.25, 0.5, 1.0, 2.0]\n"
        "shares = []\n"
        "for w in weights:\n"
        "    m = matchups(\"parade\", [weighted.bind([-1.0, -w]), \"greedy\"], n=N, seed=SEED)\n"
        "    shares.append(m.table().iloc[0])\n"
        "rows = [(w, s[\"win_share\"], s[\"low\"], s[\"high\"]) for w, s in zip(weights, shares)]\n"
        "fig, ax = plt.subplots(figsize=(6, 3.5))\n"
        "ax.errorbar([r[0] for r in rows], [r[1] for r in rows],\n"
        "            yerr=[[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]], marker=\"o\", capsize=3)\n"
        "ax.axhline(0.5, color=\"grey\", lw=0.8, ls=\"--\")\n"
        "ax.set_xlabel(\"weight per card taken (params[1])\")\n"
        "ax.set_ylabel(\"share against greedy\")\n"
        "ax.set_title(\"parade_weighted vs greedy, 2 players, both seatings\")\n"
        "plt.close(fig)  # shown once, as the cell's value\n"
        "fig"
    ),
    new_markdown_cell(
        "## 6. From here\n"
        "- Save the strategy in a `.py` file to use it from the terminal "
        "(`montecards simulate parade -s my_parade.py:choose -s greedy`), on a Dask cluster (workers "
        "import it by its path and check its source hash) or in a checkpointed run.\n"
        "- `memory` (floats zeroed at every game start) is for card counting; `rng` is the seat's own "
        "random stream (`montecards.rng.bounded(rng, n)`).\n"
        "- A strategy that returns an index outside `legal` or raises stops the run with one line naming "
        "the seat and the game."
    ),
]

nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                        "language": "python"}})
nbformat.write(nb, ROOT / "reports" / "your_strategy.ipynb")
print("wrote reports/your_strategy.ipynb")
