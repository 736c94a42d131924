"""The conventions of a command-line tool, checked on the real parser for every subcommand
(as tests/test_cli_input.py walks it for bad input): `knockboard` alone lists the commands
by group, --version, help with examples and no pointers to files an installed package lacks,
errors labelled with the command typed, "did you mean", games by their printed names,
shell completion generated from the parser, and no command that waits for ever for a board
or a window that is not there."""

import shlex

import pytest

from knockboard import __version__, registry
from knockboard.cli import build_parser, main

import bash_completion
from knockboard.cli.args import board_name, game_name
from knockboard.cli.commands import EXAMPLES, GROUPS
from knockboard.device.protocol import PROTO_VERSION
from knockboard.resources import firmware_version
from knockboard.session import Setup
from knockboard.store import GameRecord, GameStore

PARSER = build_parser()
SUBCOMMANDS = sorted(PARSER.subcommands)
# the spellings people use for each game: its printed title and others
SPELLINGS = {"knockabout": ["KNOCKabout", "KnockAbout", "knock about"],
             "dodgeball": ["Dodgeball", "DODGEBALL"],
             "ko": ["K.O.", "KO", "k.o"],
             "knockoff": ["Knock-Off", "knock off", "KNOCKOFF"]}


def run(capsys, argv):
    """(status, stdout, stderr) of `knockboard ARGV`; --help and --version exit as argparse
    makes them."""
    try:
        status = main(argv)
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def test_every_subcommand_is_listed_in_exactly_one_group():
    listed = [name for _, names in GROUPS for name in names]
    assert sorted(listed) == SUBCOMMANDS, "cli/commands.py GROUPS and the parser differ"


def test_knockboard_alone_prints_usage_and_the_commands_by_group(capsys):
    status, out, err = run(capsys, [])
    assert (status, err) == (0, "")
    assert out.startswith("usage: knockboard ")
    assert out == run(capsys, ["--help"])[1]
    lines = out.splitlines()
    for title, names in GROUPS:
        start = lines.index(f"{title}:")
        section = lines[start + 1:start + 1 + len(names)]
        assert [line.split()[0] for line in section] == list(names), section


def test_version_names_the_program_the_firmware_and_the_protocol(capsys):
    status, out, _ = run(capsys, ["--version"])
    assert status == 0
    assert out.strip() == (f"knockboard {__version__} (firmware {firmware_version()}, "
                           f"serial protocol {PROTO_VERSION})")


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_each_help_has_examples_that_parse_and_no_docs_paths(name, capsys, monkeypatch,
                                                             tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game12.json").write_text("{}")     # what the examples read must exist
    status, out, err = run(capsys, [name, "--help"])
    assert (status, err) == (0, "")
    assert out.startswith(f"usage: knockboard {name}")
    examples = EXAMPLES.get(name, ())
    assert examples, f"cli/commands.py EXAMPLES has no example for {name}"
    assert out.rstrip().endswith(examples[-1])
    for example in examples:
        words = shlex.split(example.partition(" > ")[0])
        assert words[:2] == ["knockboard", name], example
        # CliError if the example is wrong (moves may follow options, as main() allows)
        PARSER.subcommands[name].parse_intermixed_args(words[2:])
    # an installed package has no docs/ folder to point to
    assert "docs/" not in out and ".md" not in out


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_a_bad_option_is_refused_in_one_line_labelled_with_the_command(name, capsys):
    status, out, err = run(capsys, [name, "--no-such-option"])
    assert (status, out) == (2, "")
    assert err.startswith(f"knockboard {name}: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("typed, meant", [("plya", "play"), ("histroy", "history"),
                                          ("analyse", "analyze"), ("replya", "replay")])
def test_an_unknown_command_gets_a_did_you_mean(typed, meant, capsys):
    status, out, err = run(capsys, [typed, "knockabout"])
    assert (status, out) == (2, "")
    assert err == (f"knockboard: unknown command {typed!r}: did you mean {meant}? "
                   "(`knockboard` alone lists the commands)\n")


def test_every_game_and_board_argument_takes_the_printed_names():
    for name, parser in PARSER.subcommands.items():
        for action in parser._actions:
            if action.dest == "game":
                assert action.type is game_name, name
            if action.dest == "board":
                assert action.type is board_name, name
    assert sorted(SPELLINGS) == registry.names()
    for name, spellings in SPELLINGS.items():
        assert [game_name(s) for s in [name, *spellings]] == [name] * (1 + len(spellings))
        assert registry.entry(name).title in spellings


def test_a_game_named_by_its_title_plays_as_by_its_name(capsys):
    for name, spellings in SPELLINGS.items():
        expected = run(capsys, ["analyze", name])
        for spelling in spellings:
            assert run(capsys, ["analyze", spelling]) == expected


@pytest.mark.parametrize("argv, said", [
    (["analyze", "knockabot"], "unknown game 'knockabot': did you mean knockabout?"),
    (["flash", "--board", "dodgebal"], "unknown board 'dodgebal': did you mean dodgeball?"),
    (["play", "KNOCKabout", "--players", "3"], "--players 3: KNOCKabout is always 2 players"),
    (["analyze", "dodgeball", "--option", "players=2"], "Dodgeball is always 2 players"),
    (["analyze", "K.O.", "--option", "speed=3"],
     "K.O. has no option 'speed' (its options: board, players, quick_start, quiet_rounds)"),
    (["arena", "Knock-Off", "--bots", "greedy,greedy", "--option", "players=5"],
     "option players=5 not allowed for Knock-Off (choose from 2, 3, 4)"),
])
def test_names_and_options_are_refused_in_the_games_terms(argv, said, capsys):
    status, out, err = run(capsys, argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"knockboard {argv[0]}: ") and said in err, err
    assert err.count("\n") == 1


def test_errors_of_resume_are_labelled_resume(tmp_path, capsys):
    db = tmp_path / "games.db"
    setup = Setup("knockabout", {}, ["human", "human"])
    with GameStore(db) as store:
        store.new_game(GameRecord.seated(setup.game, setup.options, setup.seats, None))
    status, out, err = run(capsys, ["resume", "--db", str(db), "--port", "/dev/no-such-board"])
    assert (status, out) == (2, "")
    assert err.startswith("knockboard resume: serial port /dev/no-such-board"), err


def test_no_board_names_the_simulator_and_ports(monkeypatch, tmp_path, capsys):
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    status, out, err = run(capsys, ["play", "knockabout", "--db", str(tmp_path / "g.db")])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("knockboard play: no Knockboard found")
    assert "--sim" in err and "knockboard ports" in err


def test_sim_without_a_display_refuses_and_says_how_to_play_without_one(monkeypatch,
                                                                        tmp_path, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    status, out, err = run(capsys, ["play", "knockabout", "--sim", "--db",
                                    str(tmp_path / "g.db")])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("knockboard play: --sim shows its board in a window, which cannot "
                          "open here: no display")
    assert "knockboard sim --headless" in err and "--port" in err
    assert "knockboard demo --terminal" in err


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_know_every_subcommand(shell, capsys):
    status, out, err = run(capsys, ["completion", shell])
    assert (status, err) == (0, "")
    for name in SUBCOMMANDS:
        assert name in out
    assert "knockabout" in out and "--board" in out


def test_the_bash_completion_completes_commands_games_and_options(tmp_path, capsys):
    script = tmp_path / "knockboard.bash"
    script.write_text(run(capsys, ["completion", "bash"])[1])

    def complete(line):
        return bash_completion.complete(script, line)
    assert complete("knockboard pl") == ["play"]
    assert complete("knockboard play knock") == ["knockabout", "knockoff"]
    assert "--dry-run" in complete("knockboard flash --")
    assert complete("knockboard completion f") == ["fish"]
    (tmp_path / "game12.json").write_text("{}")
    assert complete(f"knockboard import {tmp_path}/game1") == [f"{tmp_path}/game12.json"]


def test_a_missing_board_tool_names_the_one_install_that_gives_it(monkeypatch, tmp_path,
                                                                  capsys):
    import importlib.util
    import sys
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "mpremote" else real_find_spec(name, *a))
    status, out, err = run(capsys, ["flash", "--board", "ko", "--port", "/dev/null"])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("knockboard flash: mpremote") and "pip install 'mpremote" in err
    monkeypatch.setitem(sys.modules, "littlefs", None)          # import littlefs fails
    status, out, err = run(capsys, ["uf2", "--board", "ko", "-o", str(tmp_path / "ko.uf2")])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "pip install 'littlefs-python==0.19.0'" in err
    assert not (tmp_path / "ko.uf2").exists()
