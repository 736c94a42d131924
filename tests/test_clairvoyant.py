"""The clairvoyant arena player (bots/clairvoyant.py): it reads the arena's dice stream
ahead without consuming it, and its search uses the rolls to come."""

import random

import pytest

from knockboard.arena import ARENA_BOTS, run_arena
from knockboard.bots import BOT_NAMES, GreedyBot
from knockboard.bots.clairvoyant import LOOKAHEAD, ClairvoyantBot, outcome_for
from knockboard.games import get_game, sample_chance
from knockboard.session.seats import SeatError, make_bot as make_seat_bot

DODGEBALL = get_game("dodgeball")
# The last pawn of each team; team 1's carrier on d4 has thrown at team 2's e5, which may
# catch or dodge.  Catch: thrower roll >= target roll puts e5 out (team 2 loses), lower
# puts d4 out (team 2 wins).  Dodge: higher puts e5 out, otherwise a miss.
LAST_THROW = "turn1 1:d4 2:e5 balls:ab,gh dice:23x/456 throw:d4-e5"


def test_it_is_for_the_arena_only():
    assert "clairvoyant" in ARENA_BOTS and "clairvoyant" not in BOT_NAMES
    with pytest.raises(SeatError):
        make_seat_bot("clairvoyant", 0)


def test_outcome_for_picks_what_the_arena_samples():
    state = get_game("ko", players=2).new_initial_state()
    while not state.is_chance_node():
        state.apply(state.legal_actions()[0])
    for seed in range(50):
        x = random.Random(seed).random()
        assert outcome_for(state.chance_outcomes(), x) == \
            sample_chance(state, random.Random(seed))


def test_reading_ahead_consumes_nothing():
    dice = random.Random(7)
    bot = ClairvoyantBot(seed=1, iterations=10)
    bot.see_dice(dice)
    ahead = bot.read_ahead()
    assert len(ahead) == LOOKAHEAD and bot.read_ahead() == ahead
    assert [dice.random() for _ in range(5)] == ahead[:5]


def _play_out_the_throw(bot, dice):
    """The declaration of team 2 (the bot's seat), then the throw's dice from the stream:
    the position's result (1: team 2 won, -1: lost, 0: the game goes on) and the answer."""
    state = DODGEBALL.from_position(LAST_THROW)
    action = bot.choose(state)
    answer = state.action_to_string(action)
    state.apply(action)
    state.apply(sample_chance(state, dice))
    state.apply(sample_chance(state, dice))
    return (state.returns()[1] if state.is_terminal() else 0), answer


def test_knowing_the_throws_dice_it_survives_a_last_throw_the_greedy_bot_loses():
    ties = 0
    for seed in range(60):
        stream = random.Random(seed)
        thrower, target = (int(stream.random() * 6) + 1 for _ in range(2))
        clairvoyant = ClairvoyantBot(seed=seed, iterations=20)
        clairvoyant.see_dice(random.Random(seed))
        seen, answer = _play_out_the_throw(clairvoyant, random.Random(seed))
        blind, _ = _play_out_the_throw(GreedyBot(seed=seed), random.Random(seed))
        if thrower < target:
            assert (seen, answer) == (1, "catch")          # the catch puts the thrower out
        elif thrower == target:
            ties += 1
            assert (seen, answer) == (0, "dodge") and blind == -1
        else:
            assert seen == blind == -1                      # nothing saves e5
    assert ties >= 5


def test_without_a_stream_it_searches_like_the_strong_bot():
    state = DODGEBALL.from_position(LAST_THROW)
    bot = ClairvoyantBot(seed=3, iterations=20)
    assert bot.read_ahead() == []
    assert state.action_to_string(bot.choose(state)) == "catch"


@pytest.mark.parametrize("game", ["knockoff", "dodgeball"])
def test_an_arena_with_the_clairvoyant_is_reproducible(game):
    runs = [run_arena(get_game(game), ["clairvoyant", "greedy"], 2, seed=4, budget=30,
                      iterations=10, max_decisions=600) for _ in range(2)]
    assert [(e.wins, e.moves) for e in runs[0].entries] == \
        [(e.wins, e.moves) for e in runs[1].entries]
    assert runs[0].plies == runs[1].plies


def test_the_arena_command_seats_it(capsys):
    from knockboard.cli import main
    status = main(["arena", "knockoff", "--bots", "clairvoyant,greedy", "--games", "2",
                   "--seed", "3", "--iterations", "5", "--budget", "30"])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    assert [line.split()[1] for line in out.splitlines()[2:4]] == ["clairvoyant", "greedy"]


def _hiding(monkeypatch, duels, turns):
    monkeypatch.setattr(ClairvoyantBot, "sees_duels", duels)
    monkeypatch.setattr(ClairvoyantBot, "sees_turns", turns)


def test_with_the_duels_dice_hidden_its_declaration_does_not_depend_on_them(monkeypatch):
    # benchmarks/experiments/dodgeball_foresight.py --sees turns: the catch-or-dodge
    # answer to the last throw is the one a player without the stream gives, whatever
    # the throw's dice will be (with them seen it dodges a tie: the test above).
    _hiding(monkeypatch, duels=False, turns=True)
    answers = set()
    for seed in range(30):
        bot = ClairvoyantBot(seed=seed, iterations=20)
        bot.see_dice(random.Random(seed))
        answers.add(_play_out_the_throw(bot, random.Random(seed))[1])
    assert answers == {"catch"}


@pytest.mark.parametrize("position", [
    "turn1 1:c3+,d2,f4 2:c6,e5,g7+ balls:de dice:246/135",
    "turn1 1:c4+,e3 2:d5,f6 balls:ab,gh dice:156/234",
    "turn2 1:b4,d3+,e2 2:d5+,f6 balls:ab dice:356/124",
])
def test_with_every_kind_hidden_it_searches_as_without_a_stream(monkeypatch, position):
    # Hiding must hide: seeing neither the duels' nor the turns' dice, the search takes
    # the action, and keeps the plan for the rest of its turn (every throw's results
    # followed), of the same bot given no stream at all, whatever the stream holds.  A
    # die read from the stream shows in the plan: a known throw has one result.
    _hiding(monkeypatch, duels=False, turns=False)
    state = DODGEBALL.from_position(position)
    blind = ClairvoyantBot(seed=9, iterations=12)
    action = blind.choose(state)
    for stream in range(4):
        seeing = ClairvoyantBot(seed=9, iterations=12)
        seeing.see_dice(random.Random(100 + stream))
        assert seeing.choose(state) == action
        assert seeing.plan == blind.plan
