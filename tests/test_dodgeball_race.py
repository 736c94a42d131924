"""The race of throws (benchmarks/dodgeball_race.py): its exact value is what the race
wins when played out with real dice duels, and what it needs follows from that value."""

import random

import pytest

from benchmarks import dodgeball_race as race


def _throw(rng, at_carrier):
    """One throw's result with two dice: 'target', 'thrower' (out) or 'miss'."""
    t, d = rng.randint(1, 6), rng.randint(1, 6)
    if at_carrier:                      # D-4: the carrier dodges
        return "target" if t > d else "miss"
    return "target" if t >= d else "thrower"    # a catch: equal rolls hit


def play_out(rng, ours, at_carriers, theirs_at_carriers):
    pawns = [race.PAWNS, race.PAWNS]    # the player's, the other team's
    while min(pawns):
        mine = rng.random() < ours
        share = at_carriers if mine else theirs_at_carriers
        result = _throw(rng, rng.random() < share)
        thrower, target = (0, 1) if mine else (1, 0)
        if result == "target":
            pawns[target] -= 1
        elif result == "thrower":
            pawns[thrower] -= 1
    return 1 if pawns[1] == 0 else 0


@pytest.mark.parametrize("mix", [(0.5, 0.15, 0.15), (0.49, 0.14, 0.17), (0.6, 0.5, 0.0)])
def test_the_exact_value_is_what_the_race_wins_with_dice(mix):
    rng = random.Random(7)
    n = 20_000
    wins = sum(play_out(rng, *mix) for _ in range(n))
    exact = race.win_chance(*mix)
    assert abs(wins / n - exact) < 4 * (exact * (1 - exact) / n) ** 0.5


def test_a_mirrored_mix_is_even_and_carriers_are_worth_more():
    assert race.win_chance(0.5, 0.2, 0.2) == pytest.approx(0.5)
    assert race.win_chance(0.5, 0.4, 0.2) > race.win_chance(0.5, 0.2, 0.2)
    assert race.win_chance(0.6, 0.2, 0.2) > 0.5


def test_the_share_needed_reaches_the_target_and_no_less_does():
    mix = {"ours": 0.5, "at_carriers": 0.15, "theirs_at_carriers": 0.15}
    share = race.needed(0.62, mix, "at_carriers")
    assert race.win_chance(**dict(mix, at_carriers=share)) >= 0.62
    assert race.win_chance(**dict(mix, at_carriers=share - 0.01)) < 0.62
    assert race.needed(0.62, mix, "theirs_at_carriers") == float("inf")


def test_a_share_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="ours must be a share"):
        race.win_chance(1.5, 0.1, 0.1)
