-- Sealed stores (factbase.SettingStore, factbase.Fact.Index, factbase.Episode.Index).
--
-- A store that keeps sealed texts (internal/seal) gives each fact and episode its
-- index text: the hashed words the full-text index holds in place of the row's own
-- text, which is ciphertext. It is kept in the row, in terms (NULL: the row indexes
-- its own texts, as before), because the full-text tables are contentless and are
-- written by triggers from the row: deleting an entry repeats the values it was
-- indexed with, so every trigger, and the deferred flush of sqlite/fts.go, derives
-- them from the row by the same expressions:
--
--   facts_fts:    text  coalesce(terms, text)
--                 key   iif(terms IS NULL, key, '')
--                 value iif(terms IS NULL, value, '')
--   episodes_fts: content coalesce(terms, content)
--                 tags    iif(terms IS NULL, the tags joined by spaces, '')
--
-- Retraction, supersession, erasure and any update of the texts (a key rotation
-- rewrites them: factbase.ResealStore) keep the index consistent; an update that
-- leaves the indexed values as they were (a sealed text sealed anew) leaves the
-- entry alone.
--
-- settings holds the database's own named values (the sealed store's key record).

ALTER TABLE facts ADD COLUMN terms TEXT;
ALTER TABLE episodes ADD COLUMN terms TEXT;

CREATE TABLE settings (
	name  TEXT NOT NULL PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;

DROP TRIGGER facts_fts_insert;
DROP TRIGGER facts_fts_delete;
DROP TRIGGER facts_fts_update_out;
DROP TRIGGER facts_fts_update_in;
DROP TRIGGER episodes_fts_insert;
DROP TRIGGER episodes_fts_delete;
DROP TRIGGER episodes_fts_update;

CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts
WHEN (NEW.current = 1 OR NEW.superseded_by <> '') AND NEW.seq < (SELECT from_seq FROM fts_defer)
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value, u) VALUES (NEW.seq, coalesce(NEW.terms, NEW.text),
		iif(NEW.terms IS NULL, NEW.key, ''), iif(NEW.terms IS NULL, NEW.value, ''), 'fbu' || NEW.u);
END;

CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value, u)
	SELECT 'delete', OLD.seq, coalesce(OLD.terms, OLD.text),
		iif(OLD.terms IS NULL, OLD.key, ''), iif(OLD.terms IS NULL, OLD.value, ''), 'fbu' || OLD.u
	WHERE (OLD.current = 1 OR OLD.superseded_by <> '') AND OLD.seq < (SELECT from_seq FROM fts_defer);
	DELETE FROM embeddings WHERE kind = 'fact' AND item = OLD.seq;
END;

CREATE TRIGGER facts_fts_update_out AFTER UPDATE OF current, superseded_by, text, key, value, terms ON facts
WHEN (OLD.current = 1 OR OLD.superseded_by <> '') AND (
	NOT (NEW.current = 1 OR NEW.superseded_by <> '')
	OR coalesce(OLD.terms, OLD.text) IS NOT coalesce(NEW.terms, NEW.text)
	OR iif(OLD.terms IS NULL, OLD.key, '') IS NOT iif(NEW.terms IS NULL, NEW.key, '')
	OR iif(OLD.terms IS NULL, OLD.value, '') IS NOT iif(NEW.terms IS NULL, NEW.value, ''))
	AND OLD.seq < (SELECT from_seq FROM fts_defer)
BEGIN
	INSERT INTO facts_fts (facts_fts, rowid, text, key, value, u) VALUES ('delete', OLD.seq, coalesce(OLD.terms, OLD.text),
		iif(OLD.terms IS NULL, OLD.key, ''), iif(OLD.terms IS NULL, OLD.value, ''), 'fbu' || OLD.u);
END;

CREATE TRIGGER facts_fts_update_in AFTER UPDATE OF current, superseded_by, text, key, value, terms ON facts
WHEN (NEW.current = 1 OR NEW.superseded_by <> '') AND (
	NOT (OLD.current = 1 OR OLD.superseded_by <> '')
	OR coalesce(OLD.terms, OLD.text) IS NOT coalesce(NEW.terms, NEW.text)
	OR iif(OLD.terms IS NULL, OLD.key, '') IS NOT iif(NEW.terms IS NULL, NEW.key, '')
	OR iif(OLD.terms IS NULL, OLD.value, '') IS NOT iif(NEW.terms IS NULL, NEW.value, ''))
	AND NEW.seq < (SELECT from_seq FROM fts_defer)
BEGIN
	INSERT INTO facts_fts (rowid, text, key, value, u) VALUES (NEW.seq, coalesce(NEW.terms, NEW.text),
		iif(NEW.terms IS NULL, NEW.key, ''), iif(NEW.terms IS NULL, NEW.value, ''), 'fbu' || NEW.u);
END;

CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes
BEGIN
	INSERT INTO episodes_fts (rowid, content, tags, u)
	VALUES (NEW.seq, coalesce(NEW.terms, NEW.content),
		iif(NEW.terms IS NULL, (SELECT group_concat(value, ' ') FROM json_each(NEW.tags)), ''), 'fbu' || NEW.u);
END;

CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes
BEGIN
	INSERT INTO episodes_fts (episodes_fts, rowid, content, tags, u)
	VALUES ('delete', OLD.seq, coalesce(OLD.terms, OLD.content),
		iif(OLD.terms IS NULL, (SELECT group_concat(value, ' ') FROM json_each(OLD.tags)), ''), 'fbu' || OLD.u);
	DELETE FROM embeddings WHERE kind = 'episode' AND item = OLD.seq;
	DELETE FROM episode_tags WHERE episode = OLD.seq;
END;

CREATE TRIGGER episodes_fts_update AFTER UPDATE OF content, tags, terms ON episodes
WHEN coalesce(OLD.terms, OLD.content) IS NOT coalesce(NEW.terms, NEW.content)
	OR iif(OLD.terms IS NULL, OLD.tags, '') IS NOT iif(NEW.terms IS NULL, NEW.tags, '')
BEGIN
	INSERT INTO episodes_fts (episodes_fts, rowid, content, tags, u)
	VALUES ('delete', OLD.seq, coalesce(OLD.terms, OLD.content),
		iif(OLD.terms IS NULL, (SELECT group_concat(value, ' ') FROM json_each(OLD.tags)), ''), 'fbu' || OLD.u);
	INSERT INTO episodes_fts (rowid, content, tags, u)
	VALUES (NEW.seq, coalesce(NEW.terms, NEW.content),
		iif(NEW.terms IS NULL, (SELECT group_concat(value, ' ') FROM json_each(NEW.tags)), ''), 'fbu' || NEW.u);
END;
