-- Ranked lists keep their order as sparse positions and derive ranks on read
-- (sqlite/ranks.go). A rank is the number of members at or before a position; the
-- count walked the list's index up to it, about 0.1 µs a member. list_blocks keeps,
-- per list, how many current members fall in each block of 2^38 positions (64
-- members written in order, 2^32 apart), so that a rank is the sum of the blocks
-- before its own (one row per 64 members) plus a walk within its block.
--
-- Positions written before this migration are the dense ranks 1..N: they are
-- spread 2^32 apart first, so that their blocks hold 64 members each and a list
-- need not respace at its first insert. A list is spread whole, and only if its
-- positions stay integers (all below 2^31); multiplying keeps its order. The two
-- steps (negate, flip) keep the unique index on positions satisfied at every row.

CREATE TEMP TABLE spread_lists AS
	SELECT u, subject, key FROM facts WHERE current = 1 AND cardinality = 'ranked'
	GROUP BY u, subject, key HAVING max(rank) < 2147483648 AND min(rank) > 0;
UPDATE facts SET rank = -rank * 4294967296
WHERE current = 1 AND cardinality = 'ranked' AND (u, subject, key) IN (SELECT u, subject, key FROM spread_lists);
UPDATE facts SET rank = -rank WHERE current = 1 AND cardinality = 'ranked' AND rank < 0;
DROP TABLE spread_lists;

CREATE TABLE list_blocks (
	u       INTEGER NOT NULL, -- users.seq
	subject TEXT    NOT NULL,
	key     TEXT    NOT NULL,
	block   INTEGER NOT NULL, -- position >> 38
	members INTEGER NOT NULL,
	PRIMARY KEY (u, subject, key, block)
) WITHOUT ROWID;

INSERT INTO list_blocks (u, subject, key, block, members)
SELECT u, subject, key, rank >> 38, count(*) FROM facts
WHERE current = 1 AND cardinality = 'ranked'
GROUP BY u, subject, key, rank >> 38;

CREATE TRIGGER list_blocks_insert AFTER INSERT ON facts
WHEN NEW.cardinality = 'ranked' AND NEW.current = 1
BEGIN
	INSERT INTO list_blocks (u, subject, key, block, members) VALUES (NEW.u, NEW.subject, NEW.key, NEW.rank >> 38, 1)
	ON CONFLICT (u, subject, key, block) DO UPDATE SET members = members + 1;
END;

-- A member that moves to another block, leaves its list (current 0) or returns.
CREATE TRIGGER list_blocks_update AFTER UPDATE OF rank, current ON facts
WHEN NEW.cardinality = 'ranked' AND (OLD.current = 1 OR NEW.current = 1)
	AND (OLD.current <> NEW.current OR (OLD.rank >> 38) <> (NEW.rank >> 38))
BEGIN
	UPDATE list_blocks SET members = members - 1
	WHERE OLD.current = 1 AND u = OLD.u AND subject = OLD.subject AND key = OLD.key AND block = OLD.rank >> 38;
	INSERT INTO list_blocks (u, subject, key, block, members)
	SELECT NEW.u, NEW.subject, NEW.key, NEW.rank >> 38, 1 WHERE NEW.current = 1
	ON CONFLICT (u, subject, key, block) DO UPDATE SET members = members + 1;
END;

CREATE TRIGGER list_blocks_delete AFTER DELETE ON facts
WHEN OLD.cardinality = 'ranked' AND OLD.current = 1
BEGIN
	UPDATE list_blocks SET members = members - 1
	WHERE u = OLD.u AND subject = OLD.subject AND key = OLD.key AND block = OLD.rank >> 38;
END;
