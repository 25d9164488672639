-- A write of many facts indexes their full text once, at its end, not fact by fact.
--
-- FTS5 writes its pending terms to a new segment whenever a statement opens a
-- savepoint, and every fact INSERT opens one (its triggers need a statement journal):
-- a transaction of 100 appends wrote 100 segments. fts_defer.from_seq holds, inside
-- such a transaction, the first facts.seq it leaves unindexed: the triggers below
-- index, and un-index, only facts below it, and the store (sqlite/fts.go) indexes the
-- facts from it on, in their state at that moment, with one statement before commit,
-- then sets it back to the largest integer. Outside a transaction it is always that
-- integer, so every other writer (another tool, an older binary) indexes each fact as
-- before. A fact whose seq is reused below from_seq is indexed by the triggers.

CREATE TABLE fts_defer (
	one      INTEGER PRIMARY KEY CHECK (one = 1),
	from_seq INTEGER NOT NULL
);
INSERT INTO fts_defer (one, from_seq) VALUES (1, 9223372036854775807);

DROP TRIGGER facts_fts_insert;
DROP TRIGGER facts_fts_delete;
DROP TRIGGER facts_fts_update_out;
DROP TRIGGER facts_fts_update_in;

CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts
WHEN (NEW.current = 1 OR NEW.superseded_by <> '') AND NEW.seq < (SELECT from_seq FROM fts_defer)
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value, u) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value, 'fbu' || NEW.u);
END;

CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value, u)
	SELECT 'delete', OLD.seq, OLD.text, OLD.key, OLD.value, 'fbu' || OLD.u
	WHERE (OLD.current = 1 OR OLD.superseded_by <> '') AND OLD.seq < (SELECT from_seq FROM fts_defer);
	DELETE FROM embeddings WHERE kind = 'fact' AND item = OLD.seq;
END;

CREATE TRIGGER facts_fts_update_out AFTER UPDATE OF current, superseded_by, text, key, value ON facts
WHEN (OLD.current = 1 OR OLD.superseded_by <> '') AND (
	NOT (NEW.current = 1 OR NEW.superseded_by <> '')
	OR OLD.text IS NOT NEW.text OR OLD.key IS NOT NEW.key OR OLD.value IS NOT NEW.value)
	AND OLD.seq < (SELECT from_seq FROM fts_defer)
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value, u) VALUES ('delete', OLD.seq, OLD.text, OLD.key, OLD.value, 'fbu' || OLD.u);
END;

CREATE TRIGGER facts_fts_update_in AFTER UPDATE OF current, superseded_by, text, key, value ON facts
WHEN (NEW.current = 1 OR NEW.superseded_by <> '') AND (
	NOT (OLD.current = 1 OR OLD.superseded_by <> '')
	OR OLD.text IS NOT NEW.text OR OLD.key IS NOT NEW.key OR OLD.value IS NOT NEW.value)
	AND NEW.seq < (SELECT from_seq FROM fts_defer)
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value, u) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value, 'fbu' || NEW.u);
END;
