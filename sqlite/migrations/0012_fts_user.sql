-- Full-text search per user. The full-text tables held no user column, so a search
-- ranked the matches of every user and kept the searcher's: its cost grew with the
-- whole store (0.5 s per search at 1,000,000 facts of 1,000 users). Each entry now
-- carries its owner as a token in column u ('fbu' || users.seq), and a search matches
-- "u:fbu<seq> AND {columns}: (terms)", so FTS5 ranks only the searcher's entries.
-- The u column weighs 0 in bm25. Column sizes are still not kept (columnsize = 0):
-- with them bm25 reads every match's size from another table, which tripled the time
-- of a search over 100,000 facts.

DROP TRIGGER facts_fts_insert;
DROP TRIGGER facts_fts_delete;
DROP TRIGGER facts_fts_update_out;
DROP TRIGGER facts_fts_update_in;
DROP TRIGGER episodes_fts_insert;
DROP TRIGGER episodes_fts_delete;
DROP TRIGGER episodes_fts_update;
DROP TABLE facts_fts;
DROP TABLE episodes_fts;

CREATE VIRTUAL TABLE facts_fts USING fts5(
	text, key, value, u,
	content = '', columnsize = 0,
	tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE episodes_fts USING fts5(
	content, tags, u,
	content = '', columnsize = 0,
	tokenize = 'porter unicode61 remove_diacritics 2'
);

-- As in 0011: deletes remove the terms from the index at once.
INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('secure-delete', 1);

CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts
WHEN NEW.current = 1 OR NEW.superseded_by <> ''
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value, u) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value, 'fbu' || NEW.u);
END;

CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value, u)
	SELECT 'delete', OLD.seq, OLD.text, OLD.key, OLD.value, 'fbu' || OLD.u WHERE OLD.current = 1 OR OLD.superseded_by <> '';
	DELETE FROM embeddings WHERE kind = 'fact' AND item = OLD.seq;
END;

CREATE TRIGGER facts_fts_update_out AFTER UPDATE OF current, superseded_by, text, key, value ON facts
WHEN (OLD.current = 1 OR OLD.superseded_by <> '') AND (
	NOT (NEW.current = 1 OR NEW.superseded_by <> '')
	OR OLD.text IS NOT NEW.text OR OLD.key IS NOT NEW.key OR OLD.value IS NOT NEW.value)
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value, u) VALUES ('delete', OLD.seq, OLD.text, OLD.key, OLD.value, 'fbu' || OLD.u);
END;

CREATE TRIGGER facts_fts_update_in AFTER UPDATE OF current, superseded_by, text, key, value ON facts
WHEN (NEW.current = 1 OR NEW.superseded_by <> '') AND (
	NOT (OLD.current = 1 OR OLD.superseded_by <> '')
	OR OLD.text IS NOT NEW.text OR OLD.key IS NOT NEW.key OR OLD.value IS NOT NEW.value)
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value, u) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value, 'fbu' || NEW.u);
END;

CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes
BEGIN
	INSERT INTO episodes_fts (rowid, content, tags, u)
	VALUES (NEW.seq, NEW.content, (SELECT group_concat(value, ' ') FROM json_each(NEW.tags)), 'fbu' || NEW.u);
END;

CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes
BEGIN
	INSERT INTO episodes_fts (episodes_fts, rowid, content, tags, u)
	VALUES ('delete', OLD.seq, OLD.content, (SELECT group_concat(value, ' ') FROM json_each(OLD.tags)), 'fbu' || OLD.u);
	DELETE FROM embeddings WHERE kind = 'episode' AND item = OLD.seq;
	DELETE FROM episode_tags WHERE episode = OLD.seq;
END;

CREATE TRIGGER episodes_fts_update AFTER UPDATE OF content, tags ON episodes
BEGIN
	INSERT INTO episodes_fts (episodes_fts, rowid, content, tags, u)
	VALUES ('delete', OLD.seq, OLD.content, (SELECT group_concat(value, ' ') FROM json_each(OLD.tags)), 'fbu' || OLD.u);
	INSERT INTO episodes_fts (rowid, content, tags, u)
	VALUES (NEW.seq, NEW.content, (SELECT group_concat(value, ' ') FROM json_each(NEW.tags)), 'fbu' || NEW.u);
END;

-- Index what was indexed before.
INSERT INTO facts_fts (rowid, text, key, value, u)
SELECT seq, text, key, value, 'fbu' || u FROM facts WHERE current = 1 OR superseded_by <> '';
INSERT INTO episodes_fts (rowid, content, tags, u)
SELECT seq, content, (SELECT group_concat(value, ' ') FROM json_each(tags)), 'fbu' || u FROM episodes;
