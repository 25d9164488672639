-- fact_reference_times is gone. It packed each fact's reference times for the sheet;
-- since migration 0013, sheet_rows packs them too, in each current fact's record, so
-- every reference was appended to two blobs and every write of a fact with its first
-- reference touched one b-tree more than it needed. The record of a fact that becomes
-- current again is now rebuilt from fact_references itself (in the view below), which
-- happens once per such fact, not once per reference.
DROP TRIGGER fact_reference_times_insert;
DROP TABLE fact_reference_times;

-- As in migration 0005, without the table above.
DROP TRIGGER fact_references_erase;
CREATE TRIGGER fact_references_erase AFTER DELETE ON facts
BEGIN
	DELETE FROM fact_references WHERE u = OLD.u AND fact = OLD.seq;
	UPDATE sheets SET
		entries = (SELECT json_group_array(json(e.value) ORDER BY e.key) FROM json_each(sheets.entries) e
			WHERE e.value ->> 'fact_id' IS NOT OLD.id),
		dedup = (SELECT json_group_array(json(e.value) ORDER BY e.key) FROM json_each(sheets.dedup) e
			WHERE e.value ->> 'dropped' IS NOT OLD.id AND e.value ->> 'kept' IS NOT OLD.id),
		count = (SELECT count(*) FROM json_each(sheets.entries) e WHERE e.value ->> 'fact_id' IS NOT OLD.id)
	WHERE seq IN (SELECT sheet FROM sheet_facts WHERE fact = OLD.seq);
	DELETE FROM sheet_facts WHERE fact = OLD.seq;
END;

-- The record as in migration 0013, its reference times read from fact_references in
-- the order they were recorded (seq), as sheet_rows_reference_insert appends them.
DROP VIEW sheet_rows_def;
CREATE VIEW sheet_rows_def (u, fact, rec) AS
	SELECT f.u, f.seq,
		unhex(printf('01%016x%08x%08x%08x%08x%08x%08x', f.recorded_at,
			length(CAST(f.id AS BLOB)), length(CAST(f.text AS BLOB)), length(CAST(f.key AS BLOB)),
			length(CAST(f.value AS BLOB)), length(CAST(f.category AS BLOB)), length(CAST(f.sensitivity AS BLOB))))
		|| f.id || f.text || f.key || f.value || f.category || f.sensitivity
		|| coalesce((SELECT group_concat(unhex(printf('%016x', r.at)), '' ORDER BY r.seq)
			FROM fact_references r WHERE r.u = f.u AND r.fact = f.seq), '')
	FROM facts f
	WHERE f.current = 1;
