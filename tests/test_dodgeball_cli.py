"""`knockboard analyze dodgeball`, and the examples of docs/rules/dodgeball.md run verbatim."""

import pathlib
import re
import shlex

import pytest

from knockboard.cli import main

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "rules" / "dodgeball.md"


def doc_examples():
    """(command line, expected output lines) for each `$ knockboard ...` in console blocks."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(), re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *output = chunk.rstrip("\n").split("\n")
            examples.append((command, output))
    return examples


def run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_doc_has_examples():
    assert len(doc_examples()) >= 5


@pytest.mark.parametrize("command, expected", doc_examples(), ids=lambda x: str(x)[:60])
def test_doc_examples(capsys, command, expected):
    argv = shlex.split(command)
    assert argv[0] == "knockboard"
    status, out, err = run(capsys, argv[1:])
    assert (status, err) == (0, "")
    assert out.splitlines() == expected


def test_moves_may_follow_the_position_and_options(capsys):
    status, out, _ = run(capsys, ["analyze", "dodgeball", "roll 1", "--option", "setup=quick",
                                  "roll 2", "--option", "setup=quick", "roll 3"])
    assert status == 0 and out.splitlines()[0].endswith("dice:123/-")
    status, out, _ = run(capsys, ["analyze", "dodgeball", "place b1", "--position",
                                  "setup1 1:a1 2:- balls:ab,de,gh dice:-/-", "place c1"])
    assert status == 0 and out.startswith("setup1 1:a1,b1,c1 2:- ")


@pytest.mark.parametrize("argv, message", [
    (["--position", "turn1 1:a1 2:h8 balls:ab,de dice:123/456"], "2 balls"),
    (["--position", "nonsense"], "5 or 6 fields"),
    (["place a2"], "move 1 'place a2'"),
    (["place a1", "place a1"], "move 2 'place a1'"),
    (["fly a1"], "not dodgeball notation"),
    (["--option", "setup=fast"], "setup"),
    (["--option", "players=2"], "Dodgeball is always 2 players"),
    (["--bogus"], "unrecognized arguments"),
])
def test_bad_input_exits_2_with_one_line_and_no_output(capsys, argv, message):
    status, out, err = run(capsys, ["analyze", "dodgeball", *argv])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err
