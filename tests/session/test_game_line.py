"""The game line (session/game_line.py) keeps its invariants through any sequence of its
operations, checked against the store's own replay of the record (`GameRecord.replay`,
which the line does not use): the state is always the record replayed; taking back and
redoing is a round trip; redo lasts only until something new is played or edited; a dice
outcome taken back is played again there, and no round sees the last one's; whatever the
line refuses leaves it as it was."""

import random

import pytest

from knockboard.games import CHANCE, GameError, get_game, get_match, sample_chance
from knockboard.session.game_line import Edit, GameLine, LineError
from knockboard.store import GameRecord


def _line(name, rounds=1):
    game = get_game(name)
    record = GameRecord.seated(name, {}, ["human"] * game.num_players, 1, rounds=rounds)
    return GameLine(game, record, get_match(game, rounds))


def _any_action(state, rng):
    if state.current_player() == CHANCE:
        return sample_chance(state, rng)
    return rng.choice(state.legal_actions())


def _named_but_not_legal(state):
    """An action the notation can write in `state` (so the record would note it) but the
    engine refuses there."""
    legal = {a for a, _ in state.chance_outcomes()} if state.current_player() == CHANCE \
        else set(state.legal_actions())
    for action in range(4096):
        try:
            state.action_to_string(action)
        except Exception:
            continue
        if action not in legal:
            return action
    raise AssertionError("every action the notation names is legal here")


def _snapshot(line):
    return (line.state.to_position(), list(line.state.history), list(line.record.actions),
            list(line.record.actors), line.can_redo)


def _is_its_record_replayed(line):
    replayed = line.record.replay()
    assert replayed.to_position() == line.state.to_position()
    assert replayed.history == line.state.history


def _elsewhere(game, rng):
    """A position reached by other random play, for an edit."""
    state = game.new_initial_state()
    for _ in range(rng.randrange(1, 40)):
        if state.is_terminal():
            break
        state.apply(_any_action(state, rng))
    return state.to_position()


@pytest.mark.parametrize("name", ["knockoff", "knockabout", "dodgeball"])
def test_any_sequence_of_operations_keeps_the_state_the_record_replayed(name):
    rng = random.Random(name)
    line = _line(name)
    game = get_game(name)
    done = {"play": 0, "edit": 0, "take back": 0, "redo": 0}
    for _ in range(250):
        roll = rng.random()
        target = line.record.last_decision()
        if line.state.is_terminal() or (roll < 0.15 and target is not None):
            if target is None:
                break
            before = _snapshot(line)
            moves = line.take_back(target)
            assert len(moves) == len(before[2]) - target and line.can_redo
            assert moves[-1].before.to_position() == line.state.to_position()
            _is_its_record_replayed(line)
            if rng.random() < 0.5:        # played again at once: back where it was
                redone = line.redo()
                assert [m.entry for m in redone] == [m.entry for m in reversed(moves)]
                assert _snapshot(line)[:4] == before[:4]
                done["redo"] += 1
            done["take back"] += 1
        elif roll < 0.2:
            line.edit(game.from_position(_elsewhere(game, rng)))
            assert not line.can_redo
            done["edit"] += 1
        else:
            line.play(_any_action(line.state, rng))
            assert not line.can_redo
            done["play"] += 1
        _is_its_record_replayed(line)
    assert all(done.values()), done      # every operation was exercised


def test_an_edit_taken_back_restores_the_state_it_replaced_history_and_all():
    rng = random.Random(3)
    line = _line("knockoff")
    for _ in range(12):
        line.play(_any_action(line.state, rng))
    history = list(line.state.history)
    edited = get_game("knockoff").from_position(_elsewhere(get_game("knockoff"), rng))
    line.edit(edited)
    assert line.state is edited and line.state.history != history
    (move,) = line.take_back(len(line.record.actions) - 1)
    assert isinstance(move.entry, Edit) and move.entry.position == edited.to_position()
    assert line.state.history == history
    line.redo()
    assert line.state.to_position() == edited.to_position()


def test_an_outcome_taken_back_is_remembered_until_played_there():
    rng = random.Random(5)
    line = _line("knockoff")
    while True:                 # a person's move that follows a roll
        line.play(_any_action(line.state, rng))
        actors = line.record.actors
        if len(actors) >= 2 and actors[-2] == CHANCE and actors[-1] != CHANCE:
            break
    rolled = line.take_back(len(actors) - 2)[-1]
    assert line.state.current_player() == CHANCE
    assert line.remembered_outcome() == rolled.entry
    at_roll = line.state.to_position()
    line.play(rolled.entry)
    line.edit(get_game("knockoff").from_position(at_roll))    # that roll again, by an edit
    assert line.remembered_outcome() is None     # used: nothing left to remember


def test_what_the_line_refuses_changes_nothing():
    line = _line("knockoff")
    line.play(_any_action(line.state, random.Random(1)))
    before = _snapshot(line)
    with pytest.raises(GameError):
        line.play(10 ** 9)                     # no action of the engine's
    with pytest.raises(GameError):             # the notation names it, the engine refuses it
        line.play(_named_but_not_legal(line.state))
    with pytest.raises(LineError, match="nothing to redo"):
        line.redo()
    with pytest.raises(LineError, match="no entry 5"):
        line.take_back(5)
    with pytest.raises(GameError, match="single game has no rounds"):
        line.new_round(2)
    assert _snapshot(line) == before
    with pytest.raises(LineError, match="empty record"):
        GameLine(get_game("knockoff"), line.record)


def test_a_new_round_starts_afresh_and_the_round_over_is_kept():
    rng = random.Random(7)
    game = get_game("ko")
    line = _line("ko", rounds=2)
    prefix = []                 # the moves before the game's first roll
    while line.state.current_player() != CHANCE:
        prefix.append(_any_action(line.state, rng))
        line.play(prefix[-1])
    first_roll = line.state.to_position()
    line.play(_any_action(line.state, rng))
    line.take_back(len(prefix))                      # the roll: remembered there
    assert line.remembered_outcome() is not None
    before = _snapshot(line)
    with pytest.raises(GameError, match="round 2 is missing"):
        line.new_round(3)
    assert _snapshot(line) == before
    over = game.new_initial_state()
    while not over.is_terminal():
        over.apply(_any_action(over, rng))
    line.edit(game.from_position(over.to_position()))     # the round ends elsewhere
    ended = len(line.record.actions)
    line.new_round(2)
    assert line.match.rounds_played == 1 and not line.can_redo
    assert line.record.replay().to_position() == line.state.to_position()
    for action in prefix:
        line.play(action)
    assert line.state.to_position() == first_roll
    assert line.remembered_outcome() is None         # the last round's roll is not this one's
    with pytest.raises(LineError, match="round once over is kept"):
        line.take_back(ended - 1)
