"""The database schema and its migrations.

`PRAGMA application_id` marks a Knockboard database, so a foreign SQLite file is refused
instead of being written into; `PRAGMA user_version` is the schema version, and MIGRATIONS[k]
takes a database from version k to k + 1."""

APPLICATION_ID = 0x4B4E4B42          # "KNKB"

# SQLite stores integers as signed 64-bit: a larger id or seed cannot even be looked up
SQLITE_MAX_INT = 2 ** 63 - 1
SQLITE_MIN_INT = -2 ** 63

MIGRATIONS = [
    # 0 -> 1: games and their actions in order, chance outcomes included
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,            -- JSON object
        players TEXT NOT NULL,            -- JSON list of {"name": ..., "bot": null | "greedy"...}
        seed INTEGER,
        start_position TEXT,              -- NULL: the game's real start
        started TEXT NOT NULL,            -- ISO 8601, UTC
        ended TEXT,
        result TEXT,
        status TEXT NOT NULL DEFAULT 'playing'
            CHECK (status IN ('playing', 'finished', 'abandoned'))
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,             -- 0-based position in the game
        action TEXT NOT NULL,             -- the engine's notation
        played TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_by_status ON games(status, started);
    """,
    # 1 -> 2: how the dice were rolled, so a resumed game asks for them the same way
    """
    ALTER TABLE games ADD COLUMN dice TEXT NOT NULL DEFAULT 'electronic'
        CHECK (dice IN ('electronic', 'physical'));
    """,
    # 2 -> 3: `actions.action` may now also be an edit entry, "edit <position>" (the players
    # set the position by hand in edit mode; see entries.py).  No table changes: the new
    # version only keeps an older Knockboard, which cannot replay such entries, from opening
    # the database and misreading its games.
    """
    SELECT 1;
    """,
    # 3 -> 4: a remote game's dice commitments, saved before this home reveals, and why it
    # stopped (docs/remote.md: dice that stay fair across restarts), per room
    """
    CREATE TABLE room_commitments (
        room TEXT NOT NULL,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,            -- 0-based
        hash TEXT NOT NULL,               -- hex SHA-256 commitment
        PRIMARY KEY (room, ply, seat)
    );
    CREATE TABLE room_stops (
        room TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        stopped TEXT NOT NULL             -- ISO 8601, UTC
    );
    """,
    # 4 -> 5: a K.O. match of several rounds is one game: `rounds` (NULL: a single game),
    # and its `actions` may hold "round <n>" entries (entries.py), which an older
    # Knockboard could not replay
    """
    ALTER TABLE games ADD COLUMN rounds INTEGER CHECK (rounds IS NULL OR rounds >= 2);
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
