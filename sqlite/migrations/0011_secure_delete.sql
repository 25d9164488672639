-- Erasure is complete in the file too. The writer connection runs with
-- PRAGMA secure_delete (deleted rows are overwritten with zeros); FTS5 keeps its own
-- index segments, where a delete normally only adds a tombstone and leaves the
-- deleted terms until a merge: its secure-delete option removes them at once.
INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('secure-delete', 1);
