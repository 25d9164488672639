-- Three indexes that every write paid for and few reads used. A write's cost grows
-- with the pages it dirties (about 9.5 µs per index page on top of a bare insert,
-- BenchmarkRawInsertPages), so an index a write need not touch is time saved.
--
-- Erasing a current member of a ranked list wrote a removal event that named the
-- erased fact and held its value, after the fact's own events had been deleted: the
-- erased value stayed in the file. The write path no longer writes it; this deletes
-- those left by earlier versions (every other event's fact still exists, since an
-- erasure deletes the fact's events with it).
DELETE FROM list_events WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE f.id = list_events.fact_id);

-- list_events_fact (fact_id) served one statement: the erasure of a fact's list
-- events. The erasure now finds them through list_events_key (u, subject, key, at)
-- with the fact's subject and key, so a list write no longer adds to a third b-tree.
DROP INDEX list_events_fact;

-- facts_type indexed every current fact, with or without a type; a read filters by
-- a type that is never empty (the filters add "type <> ''" so that SQLite can use
-- this partial index). A fact without a type no longer writes to it.
DROP INDEX facts_type;
CREATE INDEX facts_type ON facts (u, type, valid_from) WHERE current = 1 AND type <> '';

-- facts_source (u, source_kind, source_id) indexed every fact, and served two reads:
-- an episode's facts (source_kind 'episode', by source_id) and the transcript
-- queries (source_kind 'transcript', current). Each now has a partial index that
-- holds only its facts, and its queries name the kind as a literal so that SQLite
-- can use it; a fact from a message or set by hand writes to neither.
DROP INDEX facts_source;
CREATE INDEX facts_episode ON facts (u, source_id) WHERE source_kind = 'episode';
CREATE INDEX facts_transcript ON facts (u, recorded_at) WHERE source_kind = 'transcript' AND current = 1;
