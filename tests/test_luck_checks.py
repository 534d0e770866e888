"""benchmarks/luck_checks.py, the luck-adjusted estimate's statistical checks (issue #30;
docs/luck.md "Why the adjusted estimate stays unbiased"), on a few thousand games: the script
keeps working as the package changes, and its two checks pass at this size on a rule variant
(Anomia with a skilled first seat, the strong lineup of a game without decisions)."""

from __future__ import annotations

from benchmarks.luck_checks import coverage, unbiasedness

SKILLED = {"theta": "0.5,0,0,0"}


def test_mean_luck_is_within_its_noise_on_a_skill_variant():
    u = unbiasedness("anomia", 4, "default", 4_000, SKILLED, seed=3)
    assert u["games"] == 4_000 and u["seed"] == 3
    assert all(abs(z) < 4 for z in u["z"]), u["z"]
    # the variant is played: the skilled seat wins far above a fair quarter (57.6 % at 10^6)
    assert u["win_share"][0] > 0.45
    # adjusted = plain - luck, game by game, so the means differ by exactly the mean luck
    for win, adjusted, luck in zip(u["win_share"], u["win_share_adjusted"], u["mean_luck"], strict=True):
        assert abs(win - adjusted - luck) < 1e-9


def test_adjusted_intervals_cover_the_truth_and_are_narrower():
    c = coverage("anomia", 4, "default", runs=20, m=300, truth_games=20_000, params=SKILLED, seed=3)
    assert c["runs"] == 20 and c["seed"] == 3
    assert c["covered_adjusted"] >= 15, c  # 95 % of 20 is 19; 14 or fewer has probability < 0.001
    assert c["half_width_adjusted"] < 0.8 * c["half_width_plain"], c
    assert 0.5 < c["z_sd_adjusted"] < 1.6, c
