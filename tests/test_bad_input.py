"""Every command refuses every kind of bad input with one line on stderr and exit status 2.

Numbers, names, parameters and strategies here (in-process, through ``montecards.cli.main``);
the file and folder arguments in ``tests/test_faults.py``.
"""

from __future__ import annotations

import shlex
import sys

import pytest

from montecards import cli

BAD = {
    "simulate": [
        "chess", "parade -n 0", "parade -n abc", "parade -p 9", "parade -p 1", "parade -s nobody",
        "parade -s greedy -s greedy -s greedy", "parade --param nope=1",
        "parade --param two_player_margin=7", "parade --param two_player_margin", "parade --seed -1",
        "parade -j 0", "parade --backend nope", "parade --chunk-size 0", "parade --scheduler tcp://x:1",
        "wigout --param speed=1,2", "tulips --param values=a,b,c", "marbles --param teams=three",
        "anomia --param theta=x",
    ],
    "trace": [
        "parade --seed 1 --index -1", "parade --seed 1", "parade --seed 1 --index 0 -p 1",
        "chess --seed 1 --index 0", "parade --seed -3 --index 0", "parade --seed 1 --index 0 -s nobody",
    ],
    "seats": ["parade -n 0", "parade -p 9", "chess", "parade --precision 2", "parade -j 0",
              "parade -s nobody"],
    "compare": ["parade -n 10", "parade -s nobody -s greedy -n 10",
                "parade --variant two_player_margin=9 -n 10", "chess -n 10"],
    "sweep": ["parade nope 1,2 -n 10", "parade two_player_margin 7,8 -n 10", "chess x 1 -n 10",
              "parade two_player_margin 0,1 -n 0"],
    "tournament": [
        "parade -s greedy", "parade -s greedy -s greedy", "parade -p 4 --lineup greedy,random",
        "parade -s greedy -s random -p 3 --budget 5 -n 10",
        "parade -s greedy -s random --design sample -n 10",
        "parade -s greedy -s random --design sample --budget 10 -n 100", "parade -s greedy -s nobody",
        "parade -s greedy -s random -p 9", "parade -s greedy --opponent random --opponent random -p 4",
        "anomia -s theta=x -s theta=1", "parade -s greedy -s random --baseline nobody",
        "parade -s greedy -s random -n 0", "parade -s greedy -s random --n-for greedy",
        "anomia -s theta=0 -s theta=1 --param theta=1,0,0,0", "chess -s a -s b",
    ],
    "report": ["chess", "parade --seed -1", "parade -j 0"],
    "warmup": ["chess"],
    "games": ["--bogus"],
}
CASES = [(command, args) for command, many in BAD.items() for args in many]


@pytest.mark.parametrize("command, args", CASES, ids=[f"{c} {a}" for c, a in CASES])
def test_bad_input_is_one_line_and_exit_2(command, args, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["montecards", command, *shlex.split(args)])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert exit_info.value.code == 2, err
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
