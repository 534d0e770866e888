"""The built-ins' twins over the decision interface: ``<game>_greedy``, ``<game>_weighted``
and, where a game has one, ``<game>_random`` (``docs/strategies.md``). Each chooses what its
built-in chooses (the tests replay logged decisions through it), and each is a user strategy
by reference: ``montecards.strategies.parade_greedy:choose``. They live in the package (not
in ``examples/``) so that an installed montecards has them: ``restrict(greedy, ...)`` plays
them (``montecards/engine/restricted.py``)."""
