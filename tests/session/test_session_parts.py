"""The session's parts on their own: the interaction controller, the step animation, the
dice entry, seats, and the record."""

import pytest

from knockboard.games import get_game
from knockboard.session import GameRecord, SeatError, parse_bots
from knockboard.store import GameStore
from knockboard.session.animation import ADVANCED, PROGRESS, WRONG, Animation
from knockboard.session.dice_entry import DiceEntry
from knockboard.session.interaction import (CANCELLED, CHANGED, IGNORED, ILLEGAL, MENU_ENTRY,
                                            OPEN_MENU, PLAY, Interaction)
from knockboard.session.types import Option, Step

MOVES = [Option(1, (5, 6), "3:move", 3), Option(2, (5, 6), "5:move", 5),
         Option(3, (5, 7), "3:move b", 3), Option(4, (8, 9), "x", 0, "knock"),
         Option(5, (), "end")]


def test_a_press_selects_the_next_press_plays_and_equal_paths_are_chosen_on_the_oled():
    it = Interaction(MOVES)
    assert it.movable() == {5: "piece", 8: "piece"}
    assert it.press(1).kind == ILLEGAL and it.selected is None
    assert it.press(5).kind == CHANGED and it.targets() == {6: "move", 7: "move"}
    assert it.press(7).action == 3
    it = Interaction(MOVES)
    it.press(5)
    assert it.press(6).kind == CHANGED and it.current().label == "3:move"
    it.menu()
    assert it.current().label == "5:move"
    it.press(6)
    assert it.current() is MENU_ENTRY and it.ok().kind == OPEN_MENU
    it.menu()
    result = it.ok()
    assert result.kind == PLAY and result.action == 1
    assert it.back().kind == CHANGED and it.choice is None and it.selected is None


def test_oled_actions_come_with_ok_and_forced_choices_cannot_be_cancelled():
    it = Interaction(MOVES)
    assert it.ok().kind == CHANGED and it.current().label == "end"
    assert it.ok().action == 5
    forced = Interaction([Option(10, (), "catch"), Option(11, (), "dodge")])
    assert forced.current().label == "catch"
    assert forced.back().kind == IGNORED and forced.press(3).kind == ILLEGAL
    forced.menu()
    assert forced.ok().action == 11
    assert Interaction([Option(1, (2, 3), "m")]).ok().kind == IGNORED


def test_another_piece_is_selected_instead_and_a_non_target_cancels():
    it = Interaction(MOVES)
    it.press(5)
    assert it.press(8).kind == CHANGED and it.selected == 8
    assert it.press(1).kind == CANCELLED and it.selected is None
    it.press(5)
    assert it.press(5).kind == CHANGED and it.selected is None


def test_an_animation_step_is_done_by_ok_or_by_its_presses_in_order():
    anim = Animation([Step("move", "a", "b"), Step("remove", "c"), Step("info", text="x")])
    assert anim.press("b") == WRONG
    assert anim.press("a") == PROGRESS and anim.press("a") == PROGRESS
    assert anim.press("b") == ADVANCED and anim.step.kind == "remove"
    assert anim.press("c") == ADVANCED and anim.press("c") == WRONG
    assert anim.ok() == ADVANCED and anim.done


def test_undo_steps_run_backwards():
    assert Step("move", "a", "b", "x").reversed().presses() == ("b", "a")
    assert Step("remove", "a").reversed().kind == "place"
    assert Step("face", "a", value=5, prev=2).reversed().value == 2


def test_dice_entry_counts_up_wraps_through_the_menu_and_takes_back():
    entry = DiceEntry(["d4", "d4"], 4)
    for _ in range(3):
        entry.menu()
    assert entry.current == 4
    entry.menu()
    assert entry.on_menu and entry.ok() == OPEN_MENU and entry.current == 1
    assert entry.ok() == "changed" and entry.values == [1]
    assert entry.back() == "changed" and entry.values == [] and entry.current == 1
    assert entry.back() == "ignored"
    entry.ok()
    assert entry.ok() == "done" and entry.values == [1, 1]


def test_bots_name_the_computer_seats():
    assert parse_bots("", 2) == ["human", "human"]
    assert parse_bots("2", 3) == ["human", "fair", "human"]
    assert parse_bots("1=random,3", 4) == ["random", "human", "fair", "human"]
    assert parse_bots("all", 2) == ["fair", "fair"]
    # the levels, and the bots by their names (saved games name them)
    assert parse_bots("1=easy,2=HARD,3=fair,4=greedy", 4) == ["easy", "hard", "fair", "greedy"]
    assert parse_bots("2=strong", 2) == ["human", "strong"]
    assert parse_bots("1 = easy, 2= hard", 2) == ["easy", "hard"]   # as people type it
    # every seat at one level, and then a seat changed
    assert parse_bots("all=greedy", 3) == ["greedy"] * 3
    assert parse_bots("ALL=easy,2=hard", 3) == ["easy", "hard", "easy"]
    assert parse_bots("2=hard,all=easy", 2) == ["easy", "easy"]      # in the order given
    for bad in ("0", "5", "x", "2=deep", "2=medium", "2=clairvoyant", "2=", "2=easy,",
                "all=", "all=medium", "every=easy"):
        with pytest.raises(SeatError):
            parse_bots(bad, 4)


def test_a_record_being_played_replays_and_is_what_the_store_keeps(tmp_path):
    game = get_game("knockoff")
    state = game.new_initial_state()
    record = GameRecord.seated("knockoff", {}, ["human", "greedy"], 5)
    for text in ("roll 6", "roll 1", "roll 1-2", "H1-1a"):
        action = state.parse_action(text)
        record.push(state, action)
        state.apply(action)
    assert record.replay().to_position() == state.to_position()
    assert record.last_decision() == 3 and record.last_decision({1}) is None
    assert record.players == [{"name": "P1", "bot": None}, {"name": "P2", "bot": "greedy"}]
    assert record.seats == ["human", "greedy"] and record.status == "playing"
    with GameStore(tmp_path / "games.sqlite3") as store:
        stored = store.get(store.new_game(record))
    assert dict(stored.to_dict(), started="") == record.to_dict()
    assert stored.replay().to_position() == state.to_position()
