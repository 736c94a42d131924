"""`knockboard history | show | export | import | delete | abandon`: the saved games, from
the command line."""

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, TextIO, Tuple

from .. import registry
from ..games import State
from ..gameview.sheet import score_sheet, sheet_line
from ..store import GameRecord, GameStore, RecordError, StoreError, default_db_path
from ..store.game_lock import GameLock
from ..store.record_json import read_record_file
from .args import (SubParsers, add_db_argument, add_game_id_argument, input_file, names_file,
                   output_file, output_folder)


CHART_FILE = "chances.svg"     # export --svg: the review's chart, beside the positions


class RecordsCommandError(Exception):
    """Shown by the CLI as one line, exit status 2."""


def open_store(args: argparse.Namespace, reading: Optional[str] = None) -> GameStore:
    """The game database of `--db`. A command that only reads (`reading` names what it looks
    for, e.g. "game 4") does not create a missing database: nothing is saved there yet."""
    path = default_db_path(args.db)
    if reading and not path.exists():
        raise RecordsCommandError(f"no {reading} in {path}: no games saved there yet")
    try:
        store = GameStore(path, create=not reading)
    except StoreError as err:
        raise RecordsCommandError(str(err)) from None
    try:
        # before anything is read or written: a damaged page may cut a game short without
        # an SQLite error, and writing into a damaged file may spoil what is left
        store.check()
    except StoreError as err:
        store.close()
        raise RecordsCommandError(str(err)) from None
    return store


def _player_names(players: Iterable[Dict[str, Any]]) -> str:
    return ", ".join(p.get("name", "?") + (f" ({p['bot']})" if p.get("bot") else "")
                     for p in players) or "-"


def game_title(name: str) -> str:
    """A game as people read it (K.O., not ko); an unknown name (a record of a game this
    Knockboard does not have) as it is."""
    try:
        return registry.entry(name).title
    except KeyError:
        return name


def _seated_names(record: GameRecord) -> str:
    """The players as the session names them: "Ann (White)" where a name was given,
    else the seat ("White"), with the computer's kind ("Ben (Black, greedy)")."""
    try:
        from ..games import get_game
        from ..session.adapters import get_ui
        ui = get_ui(get_game(record.game, **record.options))
        seats = [ui.seat_name(i) for i in range(len(record.players))]
    except Exception:              # a record of a game (or options) not known here
        return _player_names(record.players)
    names: List[str] = []
    for seat, player in zip(seats, record.players):
        name, bot = player.get("name", "?"), player.get("bot")
        about = [seat] if name != seat else []
        about += [bot] if bot else []
        names.append(name + (f" ({', '.join(about)})" if about else ""))
    return ", ".join(names) or "-"


def cmd_history(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    rows: List[Tuple[Any, ...]] = []
    if default_db_path(args.db).exists():
        with open_store(args, reading="games") as store:
            rows = store.summaries()
    if args.ids:
        # for scripts and the shell's completion: nothing but the ids, newest first
        for row in rows:
            print(row[0], file=out)
        return 0
    if not rows:
        print(f"no games saved yet in {default_db_path(args.db)}", file=out)
        return 0
    table = [("id", "date", "game", "players", "result", "length")]
    for gid, started, game, players, status, result, length, rounds in rows:
        game = game_title(game)
        game = f"{game} ({rounds} rounds)" if rounds else game
        table.append((str(gid), started[:16].replace("T", " "), game, _player_names(players),
                      result or status, str(length)))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip(), file=out)
    return 0


def stored_record(store: GameStore, game_id: int) -> GameRecord:
    try:
        return store.get(game_id)
    except StoreError as err:
        raise RecordsCommandError(str(err)) from None


def replayed(record: GameRecord) -> State:
    """The state at the end of a stored record; an error naming the game if it does not
    replay (a record edited by hand, or from an engine whose rules changed)."""
    try:
        return record.replay()
    except RecordError as err:
        raise RecordsCommandError(f"game {record.id} does not replay: {err}") from None


def cmd_show(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    with open_store(args, reading=f"game {args.id}") as store:
        record = stored_record(store, args.id)
    state = replayed(record)
    print(f"game {record.id}: {game_title(record.game)}  {_seated_names(record)}", file=out)
    print(f"started {record.started}  status {record.status}  "
          f"result {record.result or '-'}", file=out)
    if record.rounds is not None:
        for line in _match_lines(record):
            print(line, file=out)
    print(f"final position: {state.to_position()}", file=out)
    for ply, entry in enumerate(score_sheet(record), 1):
        print(sheet_line(ply, entry), file=out)
    # a review made of this very record (`knockboard review`); none is computed here
    from ..review.saved import saved_summary
    for line in saved_summary(default_db_path(args.db), record) or ():
        print(line, file=out)
    return 0


def _match_lines(record: GameRecord) -> List[str]:
    """A match's rounds: each one's points and the totals, the round being played named."""
    state, match = record.replay_match()
    names = [p.get("name", "?") for p in record.players]

    def points(values: Iterable[int]) -> str:
        return ", ".join(f"{name} {p}" for name, p in zip(names, values))
    lines = [f"match of {match.rounds} rounds, the points of each:"]
    lines += [f"  round {k}: {points(r)}" for k, r in enumerate(match.round_points, 1)]
    if not match.is_over():
        now = "being played"
        if record.agreed:
            # ended in a round, or between rounds (the round before it was over)
            now = "not played: ended by agreement" if state.is_terminal() else "ended by agreement"
        lines.append(f"  round {match.rounds_played + 1}: {now}")
    lines.append(f"  total:   {points(match.totals())}")
    return lines


def cmd_export(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    with open_store(args, reading=f"game {args.id}") as store:
        if args.output and Path(args.output).resolve() == store.path.resolve():
            raise RecordsCommandError(f"export -o {args.output}: that is the game database "
                                      "itself; give another file")
        record = stored_record(store, args.id)
    replayed(record)
    if args.svg:
        return _export_svg(record, args.svg, out, args.db)
    text = record.to_json()
    if args.output:
        Path(args.output).write_text(text + "\n")
        print(f"game {args.id} written to {args.output}", file=out)
    else:
        print(text, file=out)
    return 0


def _export_svg(record: GameRecord, folder: str, out: TextIO, db: Optional[str] = None) -> int:
    from ..gameview.export import export_svg
    from ..review.saved import saved_chart
    # the chance to win across the game, where `knockboard review` was run on this record
    chart = saved_chart(default_db_path(db), record)
    try:
        written = export_svg(record, Path(folder))
        if chart:
            (Path(folder) / CHART_FILE).write_text(chart, encoding="utf-8")
    except OSError as err:
        raise RecordsCommandError(f"--svg {folder}: {err.strerror or err}") from None
    print(f"game {record.id}: {len(written)} pictures written to {folder} "
          f"({written[0].name} ... {written[-1].name})"
          + (f", and the review's chance to win in {CHART_FILE}" if chart else ""), file=out)
    return 0


def cmd_import(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    try:
        record = GameRecord.from_json(read_record_file(Path(args.file)))
    except RecordError as err:
        raise RecordsCommandError(f"{args.file}: {err}") from None
    with open_store(args) as store:
        try:
            same = None if args.again else store.find(record)
            if same is not None:
                print(f"{args.file} is game {same} already ({record.game}, "
                      f"{len(record.actions)} actions): nothing imported; --again adds a "
                      "copy", file=out)
                return 0
            gid = store.new_game(record)
        except StoreError as err:
            raise RecordsCommandError(str(err)) from None
    print(f"imported {args.file} as game {gid} ({record.game}, {len(record.actions)} actions)",
          file=out)
    return 0


def _described(record: GameRecord) -> str:
    """"game 3 (K.O., started 2026-11-28 09:12, 14 actions, playing)"."""
    return (f"game {record.id} ({game_title(record.game)}, started "
            f"{record.started[:16].replace('T', ' ')}, {len(record.actions)} actions, "
            f"{record.result or record.status})")


def _locked(store: GameStore, game_id: int) -> GameLock:
    """The game's lock (store/game_lock.py), held: a game another program has open is
    refused, not changed under it."""
    return GameLock(store.path, game_id).acquire()


def cmd_delete(args: argparse.Namespace, out: Optional[TextIO] = None,
               ask: Optional[Callable[[str], str]] = None) -> int:
    """Remove a saved game for good. It asks first at a terminal; elsewhere (a script, a
    pipe) --yes says so, since nothing could be asked and a lost game cannot come back."""
    out = out or sys.stdout
    with open_store(args, reading=f"game {args.id}") as store:
        record = stored_record(store, args.id)
        lock = _locked(store, args.id)
        try:
            if not args.yes:
                if ask is None and not sys.stdin.isatty():
                    raise RecordsCommandError(f"{_described(record)} would be lost for good: "
                                              "add --yes to delete it; nothing was deleted")
                answer = (ask or input)(f"Delete {_described(record)} for good? [y/N] ")
                if answer.strip().lower() not in ("y", "yes"):
                    print(f"game {args.id} kept", file=out)
                    return 0
            try:
                store.delete(args.id)
            except StoreError as err:
                raise RecordsCommandError(str(err)) from None
            lock.release(remove=True)
        finally:
            lock.release()
    print(f"deleted {_described(record)}", file=out)
    return 0


def cmd_abandon(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """A game nobody will finish: kept with its moves (show, replay, export), no longer the
    unfinished game `resume` picks."""
    out = out or sys.stdout
    with open_store(args, reading=f"game {args.id}") as store:
        record = stored_record(store, args.id)
        if record.status != "playing":
            raise RecordsCommandError(f"{_described(record)} is not being played; only an "
                                      "unfinished game can be abandoned")
        with _locked(store, args.id):
            try:
                store.finish(args.id, None, status="abandoned")
            except StoreError as err:
                raise RecordsCommandError(str(err)) from None
    print(f"abandoned game {args.id} ({game_title(record.game)}, {len(record.actions)} "
          "actions): `knockboard show` and `replay` still have it; `resume` no longer picks "
          "it", file=out)
    return 0


def add_record_commands(sub: SubParsers) -> None:
    def with_db(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        add_db_argument(parser)
        return parser

    history = with_db(sub.add_parser("history", help="list saved games"))
    history.add_argument("--ids", action="store_true",
                         help="only the games' ids, one a line, newest first (for scripts "
                              "and the shell's completion)")
    history.set_defaults(func=cmd_history)
    show = with_db(sub.add_parser("show", help="a saved game's final position and moves"))
    add_game_id_argument(show)
    show.set_defaults(func=cmd_show)
    export = with_db(sub.add_parser("export", help="a saved game as a JSON record"))
    add_game_id_argument(export)
    target = export.add_mutually_exclusive_group()
    names_file(target.add_argument("-o", "--output", type=output_file, metavar="FILE",
                                   help="write here, not to stdout"))
    names_file(target.add_argument("--svg", type=output_folder, metavar="DIR",
                                   help="write the position before the first move and after "
                                        "each one as pictures, DIR/000.svg, 001.svg, ..."),
               "folder")
    export.set_defaults(func=cmd_export)
    imp = with_db(sub.add_parser("import", help="add a JSON game record to the database"))
    names_file(imp.add_argument("file", type=input_file, metavar="FILE"))
    imp.add_argument("--again", action="store_true",
                     help="import it even if the same game is in the database already")
    imp.set_defaults(func=cmd_import)
    delete = with_db(sub.add_parser(
        "delete", help="remove a saved game for good",
        description="Remove saved game ID and its moves from the database for good. At a "
                    "terminal it asks first; elsewhere --yes must say so. A game open in "
                    "another program is refused."))
    add_game_id_argument(delete)
    delete.add_argument("--yes", action="store_true", help="delete without asking")
    delete.set_defaults(func=cmd_delete)
    abandon = with_db(sub.add_parser(
        "abandon", help="mark an unfinished game as abandoned (resume then skips it)",
        description="Mark unfinished game ID as abandoned: it stays saved with its moves "
                    "(show, replay, export), and `knockboard resume` no longer picks it."))
    add_game_id_argument(abandon)
    abandon.set_defaults(func=cmd_abandon)
