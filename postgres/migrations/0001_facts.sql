-- Users, facts with history, ranked-list events and list sizes: the PostgreSQL twin
-- of sqlite/migrations/0001_facts.sql.
--
-- Times are Unix nanoseconds (bigint), as in the SQLite store, so that as-of reads are
-- exact to the nanosecond on both backends and data copies between them unchanged
-- (timestamptz would round to microseconds). Users are referenced by their UUID, so a
-- read needs no user lookup; the users row is what a write transaction locks.
-- Text that is compared by range or sorted (ids, subjects, keys) sorts bytewise
-- (COLLATE "C"), as in SQLite, so that prefix ranges match the index and pages come in
-- the same order whatever the database's locale.

CREATE TABLE users (
	id         uuid   PRIMARY KEY,
	created_at bigint NOT NULL
);

CREATE TABLE facts (
	seq           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id            text   COLLATE "C" NOT NULL UNIQUE,
	u             uuid   NOT NULL REFERENCES users (id),
	subject       text   COLLATE "C" NOT NULL,
	key           text   COLLATE "C" NOT NULL,
	cardinality   text   NOT NULL CHECK (cardinality IN ('one', 'many', 'ranked')),
	value         text   NOT NULL,
	norm          text   COLLATE "C" NOT NULL,
	value_type    text   NOT NULL DEFAULT 'string',
	rank          integer CHECK (rank IS NULL OR rank <> 0),
	text          text   NOT NULL DEFAULT '',
	type          text   NOT NULL DEFAULT '',
	category      text   NOT NULL DEFAULT 'transient',
	confidence    double precision NOT NULL DEFAULT 1 CHECK (confidence >= 0 AND confidence <= 1),
	scope         text   NOT NULL DEFAULT '',
	durability    text   NOT NULL DEFAULT '',
	sensitivity   text   NOT NULL DEFAULT '',
	said_by       text   NOT NULL DEFAULT '',
	temporal      text   NOT NULL DEFAULT '',
	anchor        bigint,
	source_kind   text   NOT NULL DEFAULT '',
	source_id     text   NOT NULL DEFAULT '',
	extractor     text   NOT NULL DEFAULT '',
	recorded_at   bigint NOT NULL,
	valid_from    bigint NOT NULL,
	valid_to      bigint,
	supersedes    text   NOT NULL DEFAULT '',
	superseded_by text   NOT NULL DEFAULT '',
	current       boolean NOT NULL DEFAULT true,
	CHECK ((cardinality = 'ranked') = (rank IS NOT NULL))
);

-- One current fact per (user, subject, key) for single-valued keys.
CREATE UNIQUE INDEX facts_one_current ON facts (u, subject, key)
	WHERE current AND cardinality = 'one';
-- One member per rank in a ranked list. Unique indexes are checked row by row during
-- an UPDATE in PostgreSQL, which is why Rerank writes negated ranks first.
CREATE UNIQUE INDEX facts_rank_current ON facts (u, subject, key, rank)
	WHERE current AND cardinality = 'ranked';
-- A normalised value appears once per list or set.
CREATE UNIQUE INDEX facts_member_current ON facts (u, subject, key, norm)
	WHERE current AND cardinality <> 'one';
-- History of a key, and filtered listings.
CREATE INDEX facts_key ON facts (u, key, subject, recorded_at);
CREATE INDEX facts_subject ON facts (u, subject, recorded_at);
CREATE INDEX facts_recorded ON facts (u, recorded_at, seq);

CREATE TABLE list_events (
	seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	u         uuid   NOT NULL,
	subject   text   COLLATE "C" NOT NULL,
	key       text   COLLATE "C" NOT NULL,
	at        bigint NOT NULL,
	action    text   NOT NULL,
	fact_id   text   COLLATE "C" NOT NULL,
	value     text   NOT NULL,
	from_rank integer NOT NULL,
	to_rank   integer NOT NULL
);
CREATE INDEX list_events_key ON list_events (u, subject, key, at);
CREATE INDEX list_events_fact ON list_events (fact_id);

-- The number of current members of each ranked list, kept by the database itself on
-- every row change. With ranks unique (the index above), ranks are exactly 1..N iff
-- min(rank) = 1 and max(rank) = members: an O(log n) invariant check.
CREATE TABLE list_sizes (
	u       uuid    NOT NULL,
	subject text    COLLATE "C" NOT NULL,
	key     text    COLLATE "C" NOT NULL,
	members integer NOT NULL,
	PRIMARY KEY (u, subject, key)
);

CREATE FUNCTION list_sizes_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO list_sizes (u, subject, key, members) VALUES (NEW.u, NEW.subject, NEW.key, 1)
		ON CONFLICT (u, subject, key) DO UPDATE SET members = list_sizes.members + 1;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO list_sizes (u, subject, key, members)
		VALUES (NEW.u, NEW.subject, NEW.key, CASE WHEN NEW.current THEN 1 ELSE 0 END)
		ON CONFLICT (u, subject, key) DO UPDATE
		SET members = list_sizes.members + CASE WHEN NEW.current THEN 1 ELSE -1 END;
	ELSE
		UPDATE list_sizes SET members = members - 1
		WHERE u = OLD.u AND subject = OLD.subject AND key = OLD.key;
	END IF;
	RETURN NULL;
END;
$$;

CREATE TRIGGER list_sizes_insert AFTER INSERT ON facts FOR EACH ROW
	WHEN (NEW.cardinality = 'ranked' AND NEW.current)
	EXECUTE FUNCTION list_sizes_track();
CREATE TRIGGER list_sizes_update AFTER UPDATE OF current ON facts FOR EACH ROW
	WHEN (NEW.cardinality = 'ranked' AND OLD.current IS DISTINCT FROM NEW.current)
	EXECUTE FUNCTION list_sizes_track();
CREATE TRIGGER list_sizes_delete AFTER DELETE ON facts FOR EACH ROW
	WHEN (OLD.cardinality = 'ranked' AND OLD.current)
	EXECUTE FUNCTION list_sizes_track();
