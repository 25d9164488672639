-- Users, facts with history, and ranked-list events.
-- Times are Unix nanoseconds (UTC). Users are referenced by a small integer to keep
-- every index narrow; users.id holds the UUID.

CREATE TABLE users (
	seq        INTEGER PRIMARY KEY,
	id         TEXT    NOT NULL UNIQUE,
	created_at INTEGER NOT NULL
);

CREATE TABLE facts (
	seq           INTEGER PRIMARY KEY,
	id            TEXT    NOT NULL UNIQUE,
	u             INTEGER NOT NULL REFERENCES users(seq),
	subject       TEXT    NOT NULL,
	key           TEXT    NOT NULL,
	cardinality   TEXT    NOT NULL CHECK (cardinality IN ('one', 'many', 'ranked')),
	value         TEXT    NOT NULL,
	norm          TEXT    NOT NULL,
	value_type    TEXT    NOT NULL DEFAULT 'string',
	rank          INTEGER CHECK (rank IS NULL OR rank <> 0),
	text          TEXT    NOT NULL DEFAULT '',
	type          TEXT    NOT NULL DEFAULT '',
	category      TEXT    NOT NULL DEFAULT 'transient',
	confidence    REAL    NOT NULL DEFAULT 1 CHECK (confidence >= 0 AND confidence <= 1),
	scope         TEXT    NOT NULL DEFAULT '',
	durability    TEXT    NOT NULL DEFAULT '',
	sensitivity   TEXT    NOT NULL DEFAULT '',
	said_by       TEXT    NOT NULL DEFAULT '',
	temporal      TEXT    NOT NULL DEFAULT '',
	anchor        INTEGER,
	source_kind   TEXT    NOT NULL DEFAULT '',
	source_id     TEXT    NOT NULL DEFAULT '',
	extractor     TEXT    NOT NULL DEFAULT '',
	recorded_at   INTEGER NOT NULL,
	valid_from    INTEGER NOT NULL,
	valid_to      INTEGER,
	supersedes    TEXT    NOT NULL DEFAULT '',
	superseded_by TEXT    NOT NULL DEFAULT '',
	current       INTEGER NOT NULL DEFAULT 1 CHECK (current IN (0, 1)),
	CHECK ((cardinality = 'ranked') = (rank IS NOT NULL))
);

-- One current fact per (user, subject, key) for single-valued keys.
CREATE UNIQUE INDEX facts_one_current ON facts (u, subject, key)
	WHERE current = 1 AND cardinality = 'one';
-- One member per rank in a ranked list.
CREATE UNIQUE INDEX facts_rank_current ON facts (u, subject, key, rank)
	WHERE current = 1 AND cardinality = 'ranked';
-- A normalised value appears once per list or set.
CREATE UNIQUE INDEX facts_member_current ON facts (u, subject, key, norm)
	WHERE current = 1 AND cardinality <> 'one';
-- History of a key, and filtered listings.
CREATE INDEX facts_key ON facts (u, key, subject, recorded_at);
CREATE INDEX facts_subject ON facts (u, subject, recorded_at);

CREATE TABLE list_events (
	seq       INTEGER PRIMARY KEY,
	u         INTEGER NOT NULL,
	subject   TEXT    NOT NULL,
	key       TEXT    NOT NULL,
	at        INTEGER NOT NULL,
	action    TEXT    NOT NULL,
	fact_id   TEXT    NOT NULL,
	value     TEXT    NOT NULL,
	from_rank INTEGER NOT NULL,
	to_rank   INTEGER NOT NULL
);
CREATE INDEX list_events_key ON list_events (u, subject, key, at);
CREATE INDEX list_events_fact ON list_events (fact_id);

-- The number of current members of each ranked list, kept by the database itself on
-- every row change. With ranks unique (the index above), ranks are exactly 1..N iff
-- min(rank) = 1 and max(rank) = members: an O(log n) invariant check.
CREATE TABLE list_sizes (
	u       INTEGER NOT NULL,
	subject TEXT    NOT NULL,
	key     TEXT    NOT NULL,
	members INTEGER NOT NULL,
	PRIMARY KEY (u, subject, key)
) WITHOUT ROWID;

CREATE TRIGGER list_sizes_insert AFTER INSERT ON facts
WHEN NEW.cardinality = 'ranked' AND NEW.current = 1
BEGIN
	INSERT INTO list_sizes (u, subject, key, members) VALUES (NEW.u, NEW.subject, NEW.key, 1)
	ON CONFLICT (u, subject, key) DO UPDATE SET members = members + 1;
END;

CREATE TRIGGER list_sizes_update AFTER UPDATE OF current ON facts
WHEN NEW.cardinality = 'ranked' AND OLD.current <> NEW.current
BEGIN
	INSERT INTO list_sizes (u, subject, key, members) VALUES (NEW.u, NEW.subject, NEW.key, NEW.current)
	ON CONFLICT (u, subject, key) DO UPDATE SET members = members + (CASE WHEN NEW.current = 1 THEN 1 ELSE -1 END);
END;

CREATE TRIGGER list_sizes_delete AFTER DELETE ON facts
WHEN OLD.cardinality = 'ranked' AND OLD.current = 1
BEGIN
	UPDATE list_sizes SET members = members - 1 WHERE u = OLD.u AND subject = OLD.subject AND key = OLD.key;
END;
