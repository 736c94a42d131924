"""The ball economy (benchmarks/dodgeball_economy.py, read by dodgeball_ceiling.py): its
exact values are what its policies win when the model is played out with dice, the share of
misses that comes back is what the engine's geometry allows, and the counts of arena games
it is compared with add up."""

import random

import pytest

from knockboard.games import get_game

from benchmarks import dodgeball_ceiling
from benchmarks import dodgeball_economy as economy

GAME = get_game("dodgeball")


def _draw(rng, outcomes):
    """One of [(probability, state)] drawn with its probability."""
    return rng.choices([x for _, x in outcomes], [p for p, _ in outcomes])[0]


def _other_acts(model, s, rng):
    """The other team's act as `Model.reply` has it, drawn with dice."""
    arriving = s[5]
    if s[4] and rng.random() < model.opponent.throws:
        catch, dodge = (model._expect(economy.other_throw(s, c), arriving) for c in (True, False))
        caught = model.policy == "greedy" or catch >= dodge
        if s[2] and model.exposed is not None and rng.random() < model.exposed:
            caught = False                      # at a carrier: it must dodge
        s = _draw(rng, economy.other_throw(s, caught))
    return economy.fetched(s, False, arriving)


def play_out(model, balls, rng, first):
    """One game of the model with dice: the player follows `model.decide`, the other acts
    by its habits; the result is 1 if the player wins."""
    s = (economy.PAWNS, economy.PAWNS, 0, balls, 0, economy.BALLS - balls)
    catches = model.opponent.catches
    for step in range(10_000):
        if s[0] == 0 or s[1] == 0:
            return s[1] == 0
        if step or first:
            best, mean = _draw(rng, [(p, (best, mean)) for p, best, mean in model.geometry])
            choice, _ = model.decide(s, best, mean)
            r = mean if model.policy == "greedy" else best
            arriving = s[3]
            if choice != "hold":
                s = _draw(rng, economy.player_throw(s, r, choice == "throw at a catcher",
                                                    catches))
            s = economy.fetched(s, True, arriving)
            if s[0] == 0 or s[1] == 0:
                continue
        s = _other_acts(model, s, rng)
    raise AssertionError("a game of the model did not end")


@pytest.mark.parametrize("opponent,geometry,policy,exposed,balls", [
    (economy.greedy(1.0), [(1.0, 0.0, 0.0)], None, None, 1),
    (economy.random_bot(0.6), [(0.5, 0.4, 0.1), (0.5, 0.0, 0.0)], None, None, 2),
    (economy.greedy(1.0), [(1.0, 0.0, 0.0)], "greedy", None, 1),
    (economy.greedy(1.0), [(1.0, 0.0, 0.0)], None, 0.5, 0),
])
def test_the_solved_values_are_what_the_policy_wins_with_dice(opponent, geometry, policy,
                                                              exposed, balls):
    model = economy.Model(opponent, geometry, policy, exposed).solve()
    rng = random.Random(7)
    games = 3000
    wins = sum(play_out(model, balls, rng, first=g % 2 == 0) for g in range(games))
    expected = model.from_start()[balls]
    # Four standard errors of a rate near 0.6 over 3000 games: about 0.036.
    assert abs(wins / games - expected) < 0.036


def test_more_of_the_misses_coming_back_helps_against_the_random_bot():
    rows = [economy.Model(economy.random_bot(0.6), [(1.0, r, r)]).solve().from_start()
            for r in (0.0, 0.2, 0.4)]
    for lower, higher in zip(rows, rows[1:]):
        assert all(0.0 < a < b < 1.0 for a, b in zip(lower, higher))


def test_the_greedy_policy_against_itself_is_a_fair_game_and_best_play_beats_it():
    # Greedy's policy against the greedy bot's habits with no miss coming back: the seat
    # with s starting balls wins what the other seat, with 3 - s, loses.
    row = economy.Model(economy.greedy(1.0), [(1.0, 0.0, 0.0)], "greedy").solve().from_start()
    for s in range(4):
        assert row[s] + row[3 - s] == pytest.approx(1.0, abs=1e-6)
    best = economy.Model(economy.greedy(1.0), [(1.0, 0.0, 0.0)]).solve().from_start()
    assert all(b > g for b, g in zip(best, row))
    # Every carrier shown to the greedy bot's throws: best play wins no more than greedy's
    # policy; the whole edge of best play is in not showing them.
    exposed = economy.Model(economy.greedy(1.0), [(1.0, 0.0, 0.0)], exposed=1.0).solve()
    assert exposed.from_start() == pytest.approx(row, abs=1e-6)


def test_a_lone_pawn_sends_back_at_most_two_fifths_and_a_keeping_owner_nothing():
    assert economy.lone_pawn_geometry(False) == [(1.0, 0.4, 0.4)]
    assert economy.lone_pawn_geometry(True) == [(1.0, 0.0, 0.0)]


def test_a_walled_in_target_sends_every_miss_back_even_from_a_keeping_owner():
    # a5's own-half neighbours b5, a6, b6 are taken by its teammates: a miss can only go to
    # a4 or b4, on the thrower's half (D-6, D-7).
    state = GAME.from_position("turn1 1:a1+,b1+,c1+ 2:a5,b5,a6,b6 balls:- dice:123/456")
    a5 = 32
    assert economy.miss_share(state, a5, keeps=True) == 1.0
    assert economy.miss_share(state, a5, keeps=False) == 1.0
    assert economy.formation_shares(state, 0, keeps=True) == (1.0, 0.25)


def test_counting_arena_games_adds_up():
    counts, geometry = dodgeball_ceiling.measure("greedy", "greedy", 2, seed=4,
                                                 max_moves=1500)
    assert counts["games"] == 2
    assert counts["tested start balls"] + counts["other start balls"] <= 3 * 2
    assert 0 < counts["tested throws"] and counts["tested throws at a carrier"] <= counts[
        "tested throws"]
    assert counts["tested misses returned"] <= counts["tested misses placed"]
    # Every miss of a throw is placed by the target's owner: no more than the throws.
    assert counts["tested misses placed"] <= counts["tested throws"]
    assert counts["tested wins"] + counts["unfinished"] <= 2
    assert sum(p for p, _, _ in geometry) == pytest.approx(1.0)
    assert all(0.0 <= mean <= best <= 1.0 for _, best, mean in geometry)
    assert 0.0 <= dodgeball_ceiling.other_throw_rate(counts) <= 1.0
    finished = [counts[f"s={s} games"] for s in range(4)]
    assert sum(finished) == 2 - counts["unfinished"]
    assert sum(counts[f"s={s} wins"] for s in range(4)) == counts["tested wins"]
    assert 0.0 <= dodgeball_ceiling.exposure(counts) <= 1.0
