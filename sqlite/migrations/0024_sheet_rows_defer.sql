-- A write of many facts writes their sheet records once, at its end, as it indexes
-- their full text (0018).
--
-- A fact's record was written by its insert's trigger and then rewritten by the
-- trigger of each reference the write recorded to it, a moment later in the same
-- transaction: for a batch of 2,000 ingested facts, 4,000 writes of records where
-- 2,000 suffice. Inside a transaction that defers (fts_defer.from_seq below the
-- largest integer), the triggers below leave the records of the facts from from_seq
-- on to the store (sqlite/fts.go), which writes them from sheet_rows_def with one
-- statement before commit, after the transaction's references; a reference to such a
-- fact finds no record to append to meanwhile. Outside such a transaction the
-- triggers write every record as before, so sheet_rows still equals sheet_rows_def
-- at every commit.
DROP TRIGGER sheet_rows_fact_insert;
DROP TRIGGER sheet_rows_fact_update;

CREATE TRIGGER sheet_rows_fact_insert AFTER INSERT ON facts
WHEN NEW.current = 1 AND NEW.seq < (SELECT from_seq FROM fts_defer)
BEGIN
	INSERT INTO sheet_rows (u, fact, rec) SELECT u, fact, rec FROM sheet_rows_def WHERE fact = NEW.seq;
END;

CREATE TRIGGER sheet_rows_fact_update
AFTER UPDATE OF u, id, current, category, sensitivity, text, key, value, recorded_at ON facts
BEGIN
	DELETE FROM sheet_rows WHERE u = OLD.u AND fact = OLD.seq;
	INSERT INTO sheet_rows (u, fact, rec) SELECT u, fact, rec FROM sheet_rows_def
	WHERE fact = NEW.seq AND NEW.seq < (SELECT from_seq FROM fts_defer);
END;
