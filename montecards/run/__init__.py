"""Running games: the layer between the games and the analysis.

A run is a list of chunks ``(seed, start, count)``, each a pure function of its inputs played
by the game's kernel through its ``GameSpec`` (``engine/spec.py``): ``runner`` plays them on
this machine's threads, ``dask_backend`` on a ``dask.distributed`` cluster; ``summary`` holds
the integer summaries that merge associatively; ``output`` merges chunk results in order and
streams rows to a file; ``checkpoint`` records finished chunks so a killed run resumes;
``paths`` checks the files and folders a run writes before any game is played.

Nothing here is compiled into a kernel, and nothing here imports a game: the runner reaches a
game only through the spec it is handed (a Dask worker imports the spec's module by name).
"""
