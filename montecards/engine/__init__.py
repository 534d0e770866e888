"""The engine: what the game kernels compile (rows, traces, decision logs, user seats, weights,
the search frame, jit helpers) and the game contract (``spec.GameSpec``). It knows no game.

Running games (chunks, threads, Dask, checkpoints, output) is the layer above, ``montecards.run``.
"""
