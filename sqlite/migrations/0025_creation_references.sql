-- A fact's creation is its first reference (factbase.Reference): the fact's row holds
-- its time and source, so the write path's reference row that repeated them goes,
-- and the sheet's reader counts the creation from the record's recorded time. Where a
-- fact has two such rows (two identical references in one instant) one stays, so
-- that every fact's count of references is what it was. The sheet records lose the
-- deleted times (sheet_rows_def reads fact_references).
DELETE FROM fact_references WHERE seq IN (
	SELECT min(r.seq) FROM fact_references r
	JOIN facts f ON f.u = r.u AND f.seq = r.fact
	WHERE r.at = f.recorded_at AND r.source_kind = f.source_kind AND r.source_id = f.source_id
	GROUP BY r.u, r.fact
);

UPDATE sheet_rows SET rec = (SELECT d.rec FROM sheet_rows_def d WHERE d.fact = sheet_rows.fact);
