-- A fact's creation is its first reference (factbase.Reference): the fact's row holds
-- its time and source, so the write path's reference row that repeated them goes.
-- They were a row per fact (172 bytes a fact with their indexes, at 1,000,000 facts:
-- docs/scaling.md). Where a fact has two such rows (two identical references in one
-- instant) one stays, so that every fact's count of references is what it was.
DELETE FROM fact_references r
USING (
	SELECT min(r.seq) AS seq, r.u FROM fact_references r
	JOIN facts f ON f.u = r.u AND f.seq = r.fact
	WHERE r.at = f.recorded_at AND r.source_kind = f.source_kind AND r.source_id = f.source_id
	GROUP BY r.u, r.fact
) c
WHERE r.u = c.u AND r.seq = c.seq;
