-- The fact sheet reads one narrow row per current fact, in one sequential walk.
--
-- Before, the sheet read each current fact through the facts_type index, then its row
-- in facts (a seek per fact into a wide row), then its packed reference times (a
-- second seek, into fact_reference_times). sheet_rows holds exactly what the sheet
-- reads, clustered by (u, fact), so a user's sheet is one range of one b-tree. For
-- 100,000 facts and 1,000,000 references this cut the read from about 165 to about
-- 112 ms of CPU (the same statement over both layouts, best of 6, on a shared
-- machine).
--
-- The triggers below keep it equal to this query, for every user, at every commit:
--
--   SELECT f.u, f.seq, f.id, f.category, f.sensitivity, f.text, f.key, f.value,
--          f.recorded_at, t.times
--   FROM facts f LEFT JOIN fact_reference_times t ON t.fact = f.seq
--   WHERE f.current = 1
--
-- (memory's TestGenerateSheetMatchesAssemble and the conformance suite compare the
-- sheet with one built from facts and references read the ordinary way). The cost:
-- a fact's write also writes its row here, and a reference appends 8 bytes to the
-- fact's times twice (here and in fact_reference_times, which stays the source for a
-- fact that becomes current again).
CREATE TABLE sheet_rows (
	u           INTEGER NOT NULL, -- users.seq
	fact        INTEGER NOT NULL, -- facts.seq
	id          TEXT    NOT NULL,
	category    TEXT    NOT NULL,
	sensitivity TEXT    NOT NULL,
	text        TEXT    NOT NULL,
	key         TEXT    NOT NULL,
	value       TEXT    NOT NULL,
	recorded_at INTEGER NOT NULL,
	times       BLOB,             -- as fact_reference_times.times; NULL: no reference
	PRIMARY KEY (u, fact)
) WITHOUT ROWID;

INSERT INTO sheet_rows (u, fact, id, category, sensitivity, text, key, value, recorded_at, times)
	SELECT f.u, f.seq, f.id, f.category, f.sensitivity, f.text, f.key, f.value, f.recorded_at, t.times
	FROM facts f LEFT JOIN fact_reference_times t ON t.fact = f.seq
	WHERE f.current = 1;

CREATE TRIGGER sheet_rows_fact_insert AFTER INSERT ON facts WHEN NEW.current = 1
BEGIN
	INSERT INTO sheet_rows (u, fact, id, category, sensitivity, text, key, value, recorded_at, times)
	VALUES (NEW.u, NEW.seq, NEW.id, NEW.category, NEW.sensitivity, NEW.text, NEW.key, NEW.value,
		NEW.recorded_at, (SELECT times FROM fact_reference_times WHERE fact = NEW.seq));
END;

-- Any change to a column the sheet reads, or to whether the fact is current, replaces
-- the row (or removes it).
CREATE TRIGGER sheet_rows_fact_update
AFTER UPDATE OF u, id, current, category, sensitivity, text, key, value, recorded_at ON facts
BEGIN
	DELETE FROM sheet_rows WHERE u = OLD.u AND fact = OLD.seq;
	INSERT INTO sheet_rows (u, fact, id, category, sensitivity, text, key, value, recorded_at, times)
	SELECT NEW.u, NEW.seq, NEW.id, NEW.category, NEW.sensitivity, NEW.text, NEW.key, NEW.value,
		NEW.recorded_at, (SELECT times FROM fact_reference_times WHERE fact = NEW.seq)
	WHERE NEW.current = 1;
END;

CREATE TRIGGER sheet_rows_fact_delete AFTER DELETE ON facts
BEGIN
	DELETE FROM sheet_rows WHERE u = OLD.u AND fact = OLD.seq;
END;

-- A reference appends its time to the fact's row if the fact is current, exactly as
-- fact_reference_times_insert does (8 bytes, big-endian Unix nanoseconds; the first
-- is a blob, the concatenation of more is stored as text, and SheetFacts reads the
-- bytes either way), so that the two stay equal value for value.
CREATE TRIGGER sheet_rows_reference_insert AFTER INSERT ON fact_references
BEGIN
	UPDATE sheet_rows SET times = CASE WHEN times IS NULL THEN unhex(printf('%016x', NEW.at))
		ELSE times || unhex(printf('%016x', NEW.at)) END
	WHERE u = NEW.u AND fact = NEW.fact;
END;
