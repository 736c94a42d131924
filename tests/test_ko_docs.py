"""The command lines in docs/rules/ko.md print exactly the output shown there.

Each ```console block holds `$ knockboard ...` lines followed by their output.  The command
runs through `knockboard.cli.main`; the few shell filters the page uses (`2>&1`,
`| sed -n Np`, `| grep [-E] [-c] [-v] PATTERN`) are applied here in Python."""

import re
import shlex
from pathlib import Path

import pytest

from knockboard.cli import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules" / "ko.md"


def examples():
    found = []
    block = None
    for line in DOC.read_text().splitlines():
        if line.startswith("```console"):
            block = []
        elif block is not None and line.startswith("```"):
            found.extend(block)
            block = None
        elif block is not None:
            if line.startswith("$ "):
                block.append((line[2:], []))
            else:
                block[-1][1].append(line)
    return found


def run_filter(words, lines):
    if words[:2] == ["sed", "-n"] and re.fullmatch(r"\d+p", words[2]):
        n = int(words[2][:-1])
        return lines[n - 1:n]
    if words[0] == "grep":
        flags = set(w for w in words[1:-1])
        assert flags <= {"-E", "-c", "-v"}, words
        pattern = re.compile(words[-1])
        kept = [x for x in lines if bool(pattern.search(x)) != ("-v" in flags)]
        return [str(len(kept))] if "-c" in flags else kept
    raise AssertionError(f"filter not supported by this test: {words}")


def run_command(command, capsys):
    words = shlex.split(command)
    stages = [[]]
    for word in words:
        if word == "|":
            stages.append([])
        else:
            stages[-1].append(word)
    argv = stages[0]
    merge = argv[-1] == "2>&1"
    if merge:
        argv = argv[:-1]
    assert argv[0] == "knockboard"
    main(argv[1:])
    out, err = capsys.readouterr()
    lines = out.splitlines() + (err.splitlines() if merge else [])
    for stage in stages[1:]:
        lines = run_filter(stage, lines)
    return lines


EXAMPLES = examples()


def test_the_page_has_the_sheet_examples():
    assert len(EXAMPLES) >= 25
    text = DOC.read_text()
    for heading in ("1 and 5", "3 and 6", "5 and 5", "3 and 3", "A piece already out",
                    "A double whose piece is out", "KO-0", "KO-1", "KO-2"):
        assert heading in text


@pytest.mark.parametrize("command, expected", EXAMPLES,
                         ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_doc_example_output(command, expected, capsys):
    assert run_command(command, capsys) == expected
