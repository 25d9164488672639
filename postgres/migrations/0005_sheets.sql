-- The fact sheet (the twin of sqlite/migrations/0005_sheets.sql): references (each
-- time the write path stores or blocks as a duplicate a fact, or an answer uses it)
-- and the saved sheets.

-- A fact's references; fact is the referenced row's facts.seq. Erasing the fact
-- erases them (ON DELETE CASCADE).
CREATE TABLE fact_references (
	seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	u           uuid   NOT NULL REFERENCES users (id),
	fact        bigint NOT NULL REFERENCES facts (seq) ON DELETE CASCADE,
	at          bigint NOT NULL,
	source_kind text   NOT NULL DEFAULT '',
	source_id   text   NOT NULL DEFAULT ''
);
CREATE INDEX fact_references_fact ON fact_references (fact, at);

-- Saved sheets: entries and dedup log as JSON arrays (see factbase.FactSheet).
CREATE TABLE sheets (
	seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id         text   NOT NULL UNIQUE,
	u          uuid   NOT NULL REFERENCES users (id),
	created_at bigint NOT NULL,
	count      integer NOT NULL CHECK (count >= 0),
	entries    jsonb  NOT NULL,
	dedup      jsonb  NOT NULL
);
CREATE INDEX sheets_created ON sheets (u, created_at, seq);

-- Which facts each saved sheet names (entries and dedup log), so that erasing a fact
-- finds the sheets to scrub without reading every sheet.
CREATE TABLE sheet_facts (
	fact  bigint NOT NULL,
	sheet bigint NOT NULL REFERENCES sheets (seq) ON DELETE CASCADE,
	PRIMARY KEY (fact, sheet)
);
CREATE INDEX sheet_facts_sheet ON sheet_facts (sheet);

-- Erasure is complete: a deleted fact leaves every saved sheet (its entry, its dedup
-- records, the count). BEFORE DELETE, so that it runs whatever cascades do.
CREATE FUNCTION sheets_scrub_fact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE sheets SET
		entries = coalesce((SELECT jsonb_agg(e.v ORDER BY e.ord) FROM jsonb_array_elements(sheets.entries) WITH ORDINALITY e (v, ord)
			WHERE e.v ->> 'fact_id' IS DISTINCT FROM OLD.id), '[]'::jsonb),
		dedup = coalesce((SELECT jsonb_agg(e.v ORDER BY e.ord) FROM jsonb_array_elements(sheets.dedup) WITH ORDINALITY e (v, ord)
			WHERE e.v ->> 'dropped' IS DISTINCT FROM OLD.id AND e.v ->> 'kept' IS DISTINCT FROM OLD.id), '[]'::jsonb),
		count = (SELECT count(*) FROM jsonb_array_elements(sheets.entries) e (v)
			WHERE e.v ->> 'fact_id' IS DISTINCT FROM OLD.id)
	WHERE seq IN (SELECT sheet FROM sheet_facts WHERE fact = OLD.seq);
	DELETE FROM sheet_facts WHERE fact = OLD.seq;
	RETURN OLD;
END;
$$;

CREATE TRIGGER sheets_scrub_fact BEFORE DELETE ON facts FOR EACH ROW
	EXECUTE FUNCTION sheets_scrub_fact();
