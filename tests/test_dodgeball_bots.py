"""Dodgeball's bots: the score (bots/dodgeball_score.py) and the strong bot's turn search
(bots/dodgeball_search.py).  Small iteration budgets (the time budget only a generous cap),
so everything here is deterministic; nothing asserts on wall-clock time or win rates."""


import pytest

from knockboard.bots import GreedyBot, StrongBot, make_bot
from knockboard.bots.dodgeball_score import REACH, THROW_BONUS, material
from knockboard.bots.dodgeball_search import distinct_actions
from knockboard.bots.heuristics import is_mixed_decision, score
from knockboard.games import get_game
from knockboard.games.dodgeball.notation import THROW, decode

from bot_games import CAP, play_bots
GAME = get_game("dodgeball")


def play(bot_names, seed, iterations=8, max_decisions=3000):
    """A whole game between two bots from a seed: (history, decisions, finished)."""
    state, decisions = play_bots(GAME, bot_names, seed, iterations, max_decisions)
    return state.history, decisions, state.is_terminal()


# --- no stall ---------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_greedy_bots_finish_a_game(seed):
    # Before the throw bonus two careful players could keep their balls for ever (the
    # reliability suite saw greedy games run for thousands of plies).
    _, decisions, finished = play(["greedy", "greedy"], seed)
    assert finished and decisions < 600


@pytest.mark.parametrize("seed", [1, 2])
def test_strong_and_greedy_finish_a_game(seed):
    _, decisions, finished = play(["strong", "greedy"], seed, iterations=6)
    assert finished and decisions < 600


# Team 1 is down to one pawn, carrying a ball, four opponents within reach: a throw risks
# its last pawn (a catch), but keeping the ball for ever stalls the game.  Both bots throw.
LAST_PAWN = "turn1 1:c4+ 2:c6,c8,d8,e8 balls:a4,c2 dice:456/123"


@pytest.mark.parametrize("bot", ["greedy", "strong"])
def test_a_last_pawn_behind_still_throws(bot):
    state = GAME.from_position(LAST_PAWN)
    thrown = False
    player = make_bot(bot, seed=2, budget=CAP, iterations=20)
    # Play its turn out (the throw may come after a move); no dice for the opponent.
    for _ in range(3):
        if state.current_player() != 0 or state.throw is not None:
            break
        action = player.choose(state)
        thrown = thrown or decode(action)[0] == THROW
        state.apply(action)
    assert thrown


def test_a_throw_scores_above_keeping_the_ball_by_the_bonus():
    # Same pawns after the throw as before; the throw's expectation is the edge of the dice
    # duel (1/6 of a pawn against a catcher) plus the bonus.
    state = GAME.from_position("turn1 1:c4+,h1 2:c6,h8 balls:a4,c2 dice:456/123")
    keep = state.clone()
    keep.apply(keep.parse_action("4:move h1-h2"))
    state.apply(state.parse_action("4:throw c4-c6"))
    assert score(state, 0) > score(keep, 0)
    assert THROW_BONUS > 0


def test_material_rewards_a_hit_for_the_side_behind():
    # A throw at a catcher from behind (1 pawn against 4): 21/36 a hit, 15/36 the last pawn
    # is out -- its expected material is better than standing still.
    assert 21 / 36 * material(1, 3) + 15 / 36 * material(0, 4) > material(1, 4)


# --- the search -------------------------------------------------------------------------------

def test_the_strong_bot_is_deterministic_for_a_seed_over_a_whole_game():
    first = play(["strong", "greedy"], seed=5, iterations=6)
    assert play(["strong", "greedy"], seed=5, iterations=6) == first


def test_an_iteration_budget_bounds_the_search():
    state = GAME.from_position("turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d8,e8,f8 balls:de,gh "
                               "dice:456/123")
    bot = StrongBot(seed=1, budget=CAP, iterations=7)
    assert bot.choose(state) in state.legal_actions()
    assert 1 <= bot.last_stats["iterations"] <= 7


def test_a_tiny_time_budget_still_answers_legally():
    state = GAME.from_position("turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d8,e8,f8 balls:de,gh "
                               "dice:456/123")
    bot = StrongBot(seed=1, budget=1e-6)
    assert bot.choose(state) in state.legal_actions()


def test_the_rest_of_a_turn_is_played_from_the_plan():
    state = GAME.from_position("turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d8,e8,f8 balls:de,gh "
                               "dice:456/123")
    bot = StrongBot(seed=1, budget=CAP, iterations=20)
    action = bot.choose(state)
    state.apply(action)
    if state.current_player() == 0 and state.throw is None:
        assert bot.choose(state) in state.legal_actions()
        assert bot.last_stats.get("planned")


def test_distinct_actions_keep_the_smallest_die():
    state = GAME.from_position("turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d8,e8,f8 balls:de,gh "
                               "dice:456/123")
    actions = state.legal_actions()
    kept = distinct_actions(actions)
    names = {state.action_to_string(a) for a in kept}
    assert "4:move b1-b2" in names and "5:move b1-b2" not in names
    assert "4:throw c4-c6" in names and "6:throw c4-c6" not in names
    # every action is kept in some form
    strip = {a & ~(7 << 4) for a in actions}
    assert strip == {a & ~(7 << 4) for a in kept}


def test_the_strong_bot_throws_at_a_carrier_rather_than_a_catcher():
    # c4 may throw at c6 (a catcher: 1/6 of a pawn) or d6, which carries a ball and must
    # dodge (15/36 of a pawn, no risk).
    state = GAME.from_position("turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d6+,e8,f8 balls:gh "
                               "dice:222/123")
    assert state.action_to_string(GreedyBot(seed=3).choose(state)) == "2:throw c4-d6"
    # The strong bot plans the whole turn (it may move a pawn first): its throw goes at d6.
    bot = StrongBot(seed=3, budget=CAP, iterations=20)
    thrown = []
    while state.current_player() == 0 and state.throw is None:
        action = bot.choose(state)
        state.apply(action)
        if state.throw is not None:
            thrown.append(state.action_to_string(action))
    assert thrown == ["2:throw c4-d6"]


def test_the_declaration_is_still_played_as_a_mixed_decision():
    # Drawn from the solved matrix game's strategy (tests/test_matrix_game.py), which here,
    # as at every throw, is the pure answer worse for the thrower.
    state = GAME.from_position("turn2 1:b1,e1,e2,f1,g4 2:b5,c8,e5+,e7,e8 balls:b6 "
                               "dice:133/25x throw:b5-e1")
    assert is_mixed_decision(state)


def test_reach_tables_allow_a_move_then_a_throw():
    # A team 1 pawn on a1 and a target on h8: 7 apart; after a move of 3 (to d4, its half
    # ends at rank 4) still 4 apart.
    a1, h8 = 0, 63
    assert REACH[0][a1][h8][0] == 7 and REACH[0][a1][h8][3] == 4
