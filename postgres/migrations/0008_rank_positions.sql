-- Ranked lists keep their order as sparse positions and derive ranks on read
-- (postgres/ranks.go), as the SQLite store does: a MOVE or an INSERT writes one row.
-- Shifting stored ranks updated every member between the two ranks, and each new
-- row version entered every index of facts: a MOVE across 5,000 members of a
-- 10,000-member list took half a second.
--
-- Positions are 2^32 apart when written in order, so the column becomes bigint, and
-- each list's dense ranks 1..N are spread 2^32 apart (whole lists whose positions
-- stay below 2^31, so that the product fits; multiplying keeps their order, and no
-- new position can meet an old one in the unique index, all old ones being below
-- 2^31).

ALTER TABLE facts ALTER COLUMN rank TYPE bigint;

UPDATE facts f SET rank = f.rank * 4294967296
FROM (SELECT u, subject, key FROM facts WHERE current AND cardinality = 'ranked'
	GROUP BY u, subject, key HAVING max(rank) < 2147483648 AND min(rank) > 0) l
WHERE f.u = l.u AND f.subject = l.subject AND f.key = l.key AND f.current AND f.cardinality = 'ranked';
