-- Episodes, the full-text indexes of facts and episodes, and stored vectors.
--
-- The full-text indexes are contentless FTS5 tables (content='') keyed by the rowid of
-- the row they index (facts.seq, episodes.seq): they hold only the index, and the rows
-- stay the single copy of the text. They keep no column sizes (columnsize=0): BM25
-- then ranks without length normalisation, which for facts and conversation turns
-- (short, of similar length) costs nothing in quality, and saves a B-tree look-up per
-- matching row, which made ranking a common word over 100,000 facts four times slower.
-- Without stored sizes an entry is deleted by repeating the values it was indexed
-- with ('delete' command); triggers do it with the OLD row, whatever code changes it,
-- so no feature can forget to index a fact or leave an erased fact findable.
--
-- A fact is indexed while it is current or superseded (kept in history as an earlier
-- value): while current = 1 OR superseded_by <> ''. Retracting or removing it (current
-- cleared with no successor) and erasing it delete its full-text entry and its vector.

CREATE TABLE episodes (
	seq          INTEGER PRIMARY KEY,
	id           TEXT    NOT NULL UNIQUE,
	u            INTEGER NOT NULL REFERENCES users(seq),
	content      TEXT    NOT NULL,
	tags         TEXT    NOT NULL DEFAULT '[]', -- JSON array, lower case, sorted
	importance   REAL    NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
	created_at   INTEGER NOT NULL,
	metadata     TEXT    NOT NULL DEFAULT '{}', -- JSON object of strings
	extracted_at INTEGER
);
CREATE INDEX episodes_created ON episodes (u, created_at, id);
CREATE INDEX episodes_unextracted ON episodes (u, created_at, id) WHERE extracted_at IS NULL;

CREATE TABLE episode_tags (
	u       INTEGER NOT NULL,
	tag     TEXT    NOT NULL,
	episode INTEGER NOT NULL REFERENCES episodes(seq) ON DELETE CASCADE,
	PRIMARY KEY (u, tag, episode)
) WITHOUT ROWID;
CREATE INDEX episode_tags_episode ON episode_tags (episode);

-- Facts by their source, for an episode's facts and the tag filter; by type, for the
-- direct look-up.
CREATE INDEX facts_source ON facts (u, source_kind, source_id);
CREATE INDEX facts_type ON facts (u, type, valid_from) WHERE current = 1;

CREATE VIRTUAL TABLE facts_fts USING fts5(
	text, key, value,
	content = '', columnsize = 0,
	tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE episodes_fts USING fts5(
	content, tags,
	content = '', columnsize = 0,
	tokenize = 'porter unicode61 remove_diacritics 2'
);

-- One vector per item: the embedding of the model that wrote it last. seq only grows
-- (AUTOINCREMENT), so a reader that has seen every vector up to seq S finds the newer
-- ones with seq > S.
CREATE TABLE embeddings (
	seq   INTEGER PRIMARY KEY AUTOINCREMENT,
	u     INTEGER NOT NULL,
	kind  TEXT    NOT NULL CHECK (kind IN ('fact', 'episode')),
	item  INTEGER NOT NULL, -- facts.seq or episodes.seq
	model TEXT    NOT NULL,
	dim   INTEGER NOT NULL CHECK (dim > 0),
	vec   BLOB    NOT NULL, -- dim little-endian float32s
	UNIQUE (kind, item)
);
CREATE INDEX embeddings_user ON embeddings (u, seq);

-- Vectors deleted per user, so that an in-memory copy of a user's vectors knows when
-- too many of its entries have gone.
CREATE TABLE embedding_deletes (
	u       INTEGER PRIMARY KEY,
	deleted INTEGER NOT NULL
);

CREATE TRIGGER embeddings_delete AFTER DELETE ON embeddings
BEGIN
	INSERT INTO embedding_deletes (u, deleted) VALUES (OLD.u, 1)
	ON CONFLICT (u) DO UPDATE SET deleted = deleted + 1;
END;

CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts
WHEN NEW.current = 1 OR NEW.superseded_by <> ''
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value);
END;

CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value)
	SELECT 'delete', OLD.seq, OLD.text, OLD.key, OLD.value WHERE OLD.current = 1 OR OLD.superseded_by <> '';
	DELETE FROM embeddings WHERE kind = 'fact' AND item = OLD.seq;
END;

-- Any update that takes a fact out of the indexed state, or changes indexed text,
-- removes the old entry; any that puts it in, or changes the text, adds the new one.
-- (Facts' text, key and value do not change after insert today.)
CREATE TRIGGER facts_fts_update_out AFTER UPDATE OF current, superseded_by, text, key, value ON facts
WHEN (OLD.current = 1 OR OLD.superseded_by <> '') AND (
	NOT (NEW.current = 1 OR NEW.superseded_by <> '')
	OR OLD.text IS NOT NEW.text OR OLD.key IS NOT NEW.key OR OLD.value IS NOT NEW.value)
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value) VALUES ('delete', OLD.seq, OLD.text, OLD.key, OLD.value);
END;

CREATE TRIGGER facts_fts_update_in AFTER UPDATE OF current, superseded_by, text, key, value ON facts
WHEN (NEW.current = 1 OR NEW.superseded_by <> '') AND (
	NOT (OLD.current = 1 OR OLD.superseded_by <> '')
	OR OLD.text IS NOT NEW.text OR OLD.key IS NOT NEW.key OR OLD.value IS NOT NEW.value)
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value);
END;

-- Retracted or removed: no longer current and not replaced by a newer value.
CREATE TRIGGER facts_vec_retract AFTER UPDATE OF current, superseded_by ON facts
WHEN (OLD.current = 1 OR OLD.superseded_by <> '') AND NOT (NEW.current = 1 OR NEW.superseded_by <> '')
BEGIN
	DELETE FROM embeddings WHERE kind = 'fact' AND item = OLD.seq;
END;

CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes
BEGIN
	INSERT INTO episodes_fts (rowid, content, tags)
	VALUES (NEW.seq, NEW.content, (SELECT group_concat(value, ' ') FROM json_each(NEW.tags)));
END;

CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes
BEGIN
	INSERT INTO episodes_fts (episodes_fts, rowid, content, tags)
	VALUES ('delete', OLD.seq, OLD.content, (SELECT group_concat(value, ' ') FROM json_each(OLD.tags)));
	DELETE FROM embeddings WHERE kind = 'episode' AND item = OLD.seq;
	DELETE FROM episode_tags WHERE episode = OLD.seq;
END;

-- Episodes' content and tags do not change after insert today; should a later
-- feature change them, the entry follows.
CREATE TRIGGER episodes_fts_update AFTER UPDATE OF content, tags ON episodes
BEGIN
	INSERT INTO episodes_fts (episodes_fts, rowid, content, tags)
	VALUES ('delete', OLD.seq, OLD.content, (SELECT group_concat(value, ' ') FROM json_each(OLD.tags)));
	INSERT INTO episodes_fts (rowid, content, tags)
	VALUES (NEW.seq, NEW.content, (SELECT group_concat(value, ' ') FROM json_each(NEW.tags)));
END;

-- Index the facts written before this migration.
INSERT INTO facts_fts (rowid, text, key, value)
SELECT seq, text, key, value FROM facts WHERE current = 1 OR superseded_by <> '';
