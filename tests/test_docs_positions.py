"""docs/positions.md: every example runs as written (smaller budgets) and shows what it says."""

import json
import re
import shlex

import pytest

from tests.docs_examples import ROOT, command_lines, fenced_blocks, python_blocks, run_command, workspace

DOC = ROOT / "docs" / "positions.md"
TEXT = DOC.read_text()
SMALLER = {"budget=200_000": "budget=3_000", "budget=20_000": "budget=300"}


def _smaller(code: str) -> str:
    for big, small in SMALLER.items():
        code = code.replace(big, small)
    return code


def test_the_python_examples_run():
    blocks = python_blocks(TEXT)
    assert len(blocks) == 3
    scope: dict = {}
    exec(compile(_smaller(blocks[0]), str(DOC), "exec"), scope)
    assert scope["result"].best in scope["pos"].legal_moves()
    assert len(scope["review"].decisions) == 19
    scope = {}
    exec(compile(blocks[1], str(DOC), "exec"), scope)
    assert scope["state"].is_terminal and sum(scope["state"].result) == pytest.approx(1.0)
    assert scope["before"].current_player == 1
    scope = {}
    exec(compile(blocks[2], str(DOC), "exec"), scope)  # Wig Out!'s mc.state
    assert scope["state"].is_terminal and sum(scope["state"].result) == pytest.approx(1.0)


def test_the_json_example_is_a_valid_position_equal_to_the_one_line_example():
    import montecards as mc
    from montecards.games.parade import position

    json_block = next(code for lang, code in fenced_blocks(TEXT) if lang == "json")
    line = next(x for x in command_lines(TEXT) if x.startswith("montecards analyse"))
    one_line = line.split('"')[1]
    assert position.parse(json.loads(json_block)) == position.parse(one_line)
    assert mc.trace("parade", seed=3, index=0, players=2).positions()[10] == position.parse(one_line)


def test_the_wigout_json_example_is_the_one_line_example_and_a_traced_decision():
    import montecards as mc
    from montecards.games.wigout import position

    json_block = [code for lang, code in fenced_blocks(TEXT) if lang == "json"][1]
    line = next(x for x in command_lines(TEXT) if x.startswith("montecards analyse wigout"))
    one_line = line.split('"')[1]
    assert position.parse(json.loads(json_block)) == position.parse(one_line)
    assert mc.trace("wigout", seed=3, index=0, players=4).positions()[3] == position.parse(one_line)
    assert "wigout players=4 seat=0 round=0" in TEXT.split("## Wig Out!")[1]


def mc_trace_line(game, seed, players, k):
    import montecards as mc

    return mc.trace(game, seed=seed, index=0, players=players).positions()[k].to_string()


def test_the_commands_run(tmp_path):
    work = workspace(tmp_path, {})
    lines = command_lines(TEXT)
    kinds = [x.split()[1:3] for x in lines]
    assert kinds[:6] == [["trace", "parade"], ["analyse", "parade"], ["trace", "parade"], ["review", "parade"],
                         ["trace", "parade"], ["review", "parade"]]  # the Quick start, then strong play reviewed
    assert kinds[6:10] == [[c, "wigout"] for c in ("trace", "analyse", "trace", "review")]
    # Gift of Tulips: an action, then a set-up split analysed
    assert kinds[10:15] == [[c, "tulips"] for c in ("trace", "analyse", "analyse", "trace", "review")]
    assert kinds[15:] == [[c, "marbles"] for c in ("trace", "analyse", "trace", "review")]
    for line in lines:
        command, target = line, ""
        if redirect := re.search(r"\s>\s", line):  # a '>' inside a quoted position is no redirect
            command, target = line[:redirect.start()], line[redirect.end():].strip()
        args = shlex.split(command)[1:]
        if args[0] == "review":
            args += ["--budget", "300"]
        out = run_command(args, work)
        assert out.returncode == 0, (line, out.stderr)
        if target:
            (work / target).write_text(out.stdout)
    assert "best:" in run_command(shlex.split(lines[1])[1:], work).stdout
    assert "best: add-11" in run_command(shlex.split(lines[7])[1:], work).stdout
    split = run_command(shlex.split(lines[12])[1:], work).stdout  # Gift of Tulips' set-up split, as shown
    assert "best: bouquet-pink-4 (decided" in split and split.split("\n")[0] in TEXT
    assert split.split("best:")[0].split("\n", 1)[1].replace(" ", "")[:200] in TEXT.replace(" ", "")
    assert mc_trace_line("tulips", 2, 4, 3) == shlex.split(lines[12])[3]


def test_the_tulips_set_up_json_example_is_the_one_line_example_and_a_traced_split():
    import montecards as mc
    from montecards.games.tulips import position

    json_block = next(code for lang, code in fenced_blocks(TEXT) if lang == "json" and '"setup"' in code)
    line = next(x for x in command_lines(TEXT)
                if x.startswith("montecards analyse tulips") and "decision=setup" in x)
    one_line = line.split('"')[1]
    assert position.parse(json.loads(json_block)) == position.parse(one_line)
    assert mc.trace("tulips", seed=2, index=0, players=4).positions()[3] == position.parse(one_line)
