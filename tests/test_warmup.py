"""montecards warmup: every game's kernels compiled (or loaded), with progress and times."""

from click.testing import CliRunner

from montecards import games
from montecards.cli import cli
from montecards.warmup import default_jobs, largest_first, warm


def test_every_game_in_some_order_and_jobs_bounded():
    assert sorted(largest_first(games.names())) == sorted(games.names())
    assert 1 <= default_jobs(5) <= 5
    assert default_jobs(1) == 1


def test_warm_reports_each_game():
    seen = []
    results = warm(["anomia"], jobs=1, report=lambda w, k, total: seen.append((w.game, k, total)))
    assert seen == [("anomia", 1, 1)]
    assert not results[0].error and results[0].kernels == ["run", "trace", "script", "decisions"]


def test_the_command_says_how_long_it_took():
    out = CliRunner().invoke(cli, ["warmup", "anomia", "-j", "1"])
    assert out.exit_code == 0, out.output
    assert "[1/1] anomia: ready in" in out.output
    assert "warmup: 1 of 1 games ready in" in out.output
