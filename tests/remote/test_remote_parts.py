"""The parts of remote play that need no broker: room addresses and passwords, the dice
derived from the reveals, the room keys, and `knockboard play --remote` refusing bad
command lines in one line."""

import collections
import hashlib

import pytest

from knockboard import cli
from knockboard.games import get_game
from knockboard.remote import AddressError, RoomKeys, parse_address, read_password
from knockboard.remote import dice


@pytest.mark.parametrize("text,expected", [
    ("mqtt://broker.example/room1", (False, None, "broker.example", 1883, "room1")),
    ("mqtts://ann@127.0.0.1:8884/kitchen", (True, "ann", "127.0.0.1", 8884, "kitchen")),
    ("mqtt://[::1]:1999/r", (False, None, "[::1]", 1999, "r")),
])
def test_room_addresses_are_read(text, expected):
    a = parse_address(text)
    assert (a.tls, a.user, a.host, a.port, a.room) == expected


@pytest.mark.parametrize("text,why", [
    ("http://h/r", "mqtt://"), ("mqtt://h", "room"), ("mqtt://h/", "room"),
    ("mqtt://h/a/b", "room"), ("mqtt://h/r#", "room"), ("mqtt://h/r+", "room"),
    ("mqtt://ann:secret@h/r", "password is never part"), ("mqtt://h:0/r", "port"),
    ("mqtt://h:99999/r", "port"), ("mqtt://h:x/r", "port"), ("mqtt:///r", "no host"),
])
def test_bad_room_addresses_are_refused_with_the_reason(text, why):
    with pytest.raises(AddressError, match=why):
        parse_address(text)


def test_the_password_comes_from_a_file_the_environment_or_a_prompt(tmp_path):
    a = parse_address("mqtt://ann@h/r")
    f = tmp_path / "pw"
    f.write_text("from-file\nsecond line\n")
    assert read_password(a, str(f), environ={"KNOCKBOARD_MQTT_PASSWORD": "env"}) == "from-file"
    assert read_password(a, None, environ={"KNOCKBOARD_MQTT_PASSWORD": "env"}) == "env"
    assert read_password(a, None, environ={}, prompt=lambda text: "typed") == "typed"
    assert read_password(parse_address("mqtt://h/r"), None, environ={}) is None
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(AddressError, match="empty"):
        read_password(a, str(tmp_path / "empty"), environ={})


def test_the_die_follows_the_outcomes_probabilities_without_bias():
    """Every reveal set gives a die; over many the faces come out as often as the engine
    says (a chi-squared bound far beyond chance failure)."""
    outcomes = get_game("knockabout").new_initial_state().chance_outcomes()   # 36 of 1/36
    counts = collections.Counter(
        dice.outcome(outcomes, [hashlib.sha256(b"%d" % i).digest(), b"seat two"])
        for i in range(36 * 400))
    assert set(counts) == {a for a, _ in outcomes}
    chi2 = sum((c - 400) ** 2 / 400 for c in counts.values())
    assert chi2 < 90, chi2            # 35 degrees of freedom: p < 1e-6 above 90


def test_a_different_reveal_from_any_one_seat_changes_the_die():
    outcomes = get_game("knockoff", players=2).new_initial_state().chance_outcomes()
    base = [b"a" * 32, b"b" * 32]
    others = {dice.outcome(outcomes, [bytes([i]) * 32, base[1]]) for i in range(60)}
    assert len(others) == 6           # seat 1 alone cannot keep the die fixed either way
    assert dice.outcome(outcomes, base) == dice.outcome(outcomes, list(base))


def test_commitments_bind_the_room_ply_and_seat():
    c = dice.commitment("r", 3, 1, b"n" * 32)
    assert dice.verify("r", 3, 1, b"n" * 32, c)
    assert not dice.verify("r", 3, 2, b"n" * 32, c)
    assert not dice.verify("r", 4, 1, b"n" * 32, c)
    assert not dice.verify("q", 3, 1, b"n" * 32, c)
    assert not dice.verify("r", 3, 1, b"m" * 32, c)


def test_room_keys_survive_a_restart_and_a_new_game_gets_new_ones(tmp_path):
    path = tmp_path / "keys"
    first = RoomKeys(path, "r", fresh=True)
    again = RoomKeys(path, "r", fresh=False)
    assert first.nonce(5, 1) == again.nonce(5, 1) != first.nonce(5, 2)
    assert (path.stat().st_mode & 0o777) == 0o600
    assert RoomKeys(path, "r", fresh=True).nonce(5, 1) != first.nonce(5, 1)
    with pytest.raises(ValueError, match="no secret for room"):
        RoomKeys(path, "other", fresh=False)


@pytest.mark.parametrize("argv,why", [
    (["--remote", "mqtt://h/r"], "--seat"),
    (["--remote", "mqtt://h/r", "--seat", "3"], "1..2"),
    (["--remote", "mqtt://h/r", "--seat", "1,2"], "nobody to play remotely"),
    (["--remote", "mqtt://h/r", "--seat", "x"], "1..2"),
    (["--remote", "mqtt://a:b@h/r", "--seat", "1"], "password is never part"),
    (["--remote", "ftp://h/r", "--seat", "1"], "mqtt://"),
    (["--seat", "1"], "go with --remote"),
    (["--remote", "mqtt://h/r", "--seat", "1", "--bots", "2"], "played at another board"),
    (["--remote", "mqtt://h/r", "--seat", "1", "--reveal-timeout", "0"], "seconds"),
])
def test_play_remote_refuses_bad_command_lines_in_one_line(argv, why, capsys, tmp_path):
    code = cli.main(["play", "knockoff", "--db", str(tmp_path / "g.sqlite3"), *argv])
    err = capsys.readouterr().err
    assert code == 2 and why in err and len(err.strip().splitlines()) == 1, err
