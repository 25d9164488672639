-- The fact sheet reads one value per current fact: a packed record.
--
-- sheet_rows (migration 0009) held ten columns, and the sheet's statement sent eight
-- of them through the driver for each of 100,000 facts: a type probe, a copy and an
-- allocation per column, which cost more than walking the b-tree. A record is one
-- string per fact, sent with one copy; the sheet's reader slices the id, the text and
-- the rest out of it without copying again.
--
-- A record, in bytes (integers big-endian):
--
--   0       format, 1
--   1..8    recorded_at (Unix nanoseconds)
--   9..32   the byte lengths of six fields, 4 bytes each:
--           id, text, key, value, category, sensitivity
--   33..    the six fields, in that order
--   then    the times of the fact's references, 8 bytes each (as
--           fact_reference_times.times), in the order they were recorded
--
-- It is stored as text (SQLite's || yields text), bytes unchanged.
--
-- sheet_rows_def is the definition: the triggers below keep sheet_rows equal to it,
-- for every user, at every commit (sqlite's TestSheetRowsFollowFacts checks this
-- after a random history of writes), and they write the rows by reading it, so the
-- encoding is written once, here.
DROP TRIGGER sheet_rows_fact_insert;
DROP TRIGGER sheet_rows_fact_update;
DROP TRIGGER sheet_rows_fact_delete;
DROP TRIGGER sheet_rows_reference_insert;
DROP TABLE sheet_rows;

CREATE VIEW sheet_rows_def (u, fact, rec) AS
	SELECT f.u, f.seq,
		unhex(printf('01%016x%08x%08x%08x%08x%08x%08x', f.recorded_at,
			length(CAST(f.id AS BLOB)), length(CAST(f.text AS BLOB)), length(CAST(f.key AS BLOB)),
			length(CAST(f.value AS BLOB)), length(CAST(f.category AS BLOB)), length(CAST(f.sensitivity AS BLOB))))
		|| f.id || f.text || f.key || f.value || f.category || f.sensitivity
		|| coalesce(t.times, '')
	FROM facts f LEFT JOIN fact_reference_times t ON t.fact = f.seq
	WHERE f.current = 1;

CREATE TABLE sheet_rows (
	u    INTEGER NOT NULL, -- users.seq
	fact INTEGER NOT NULL, -- facts.seq
	rec  BLOB    NOT NULL, -- the record, as above
	PRIMARY KEY (u, fact)
) WITHOUT ROWID;

INSERT INTO sheet_rows (u, fact, rec) SELECT u, fact, rec FROM sheet_rows_def;

CREATE TRIGGER sheet_rows_fact_insert AFTER INSERT ON facts WHEN NEW.current = 1
BEGIN
	INSERT INTO sheet_rows (u, fact, rec) SELECT u, fact, rec FROM sheet_rows_def WHERE fact = NEW.seq;
END;

-- Any change to a column the record holds, or to whether the fact is current,
-- replaces the row (or removes it).
CREATE TRIGGER sheet_rows_fact_update
AFTER UPDATE OF u, id, current, category, sensitivity, text, key, value, recorded_at ON facts
BEGIN
	DELETE FROM sheet_rows WHERE u = OLD.u AND fact = OLD.seq;
	INSERT INTO sheet_rows (u, fact, rec) SELECT u, fact, rec FROM sheet_rows_def WHERE fact = NEW.seq;
END;

CREATE TRIGGER sheet_rows_fact_delete AFTER DELETE ON facts
BEGIN
	DELETE FROM sheet_rows WHERE u = OLD.u AND fact = OLD.seq;
END;

-- A reference appends its time to the record of a current fact, exactly as
-- fact_reference_times_insert appends it to the fact's times.
CREATE TRIGGER sheet_rows_reference_insert AFTER INSERT ON fact_references
BEGIN
	UPDATE sheet_rows SET rec = rec || unhex(printf('%016x', NEW.at))
	WHERE u = NEW.u AND fact = NEW.fact;
END;
