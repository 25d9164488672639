-- Vectors move into sqlite-vec (modernc.org/sqlite/vec, v0.1.9) vec0 virtual tables.
--
-- vec0 fixes a vector column's dimension, and embedders differ (GloVe 100, an
-- OpenAI-compatible model 768 or 1536, the hashing test embedder whatever it is
-- given), so there is one vec0 table per dimension, vec_<dim>, created on demand by
-- the write that first stores a vector of that dimension (sqlite/vectors.go,
-- ensureVecTable), in the same transaction:
--
--   CREATE VIRTUAL TABLE vec_<dim> USING vec0(
--       user_id integer partition key,  -- users.seq
--       kind text partition key,        -- 'fact' or 'episode'
--       embedding float[<dim>],         -- rowid = embeddings.seq
--       chunk_size=64)                  -- 1,024 would cost 400 KB per user and kind
--
-- embeddings stays the side table that records each vector's item, model and
-- dimension; it loses its vec column, which vec_<dim> now holds. Each vec_<dim>
-- has a trigger that deletes its row when the embeddings row goes, so every path
-- that already deletes embeddings (retract, erase, episode delete, re-embed)
-- removes the vector from vec0 in the same transaction.
--
-- After this file, in the same transaction, the Go step migrateVec0 creates
-- vec_<dim> for each dimension stored, copies the vectors into it and drops
-- embeddings.vec: an existing database upgrades in place.

-- Vectors per user, kind and dimension, kept by triggers, so that a search knows
-- without counting whether vec0's k-NN or the in-memory ranking serves it.
CREATE TABLE embedding_counts (
	u    INTEGER NOT NULL,
	kind TEXT    NOT NULL,
	dim  INTEGER NOT NULL,
	n    INTEGER NOT NULL,
	PRIMARY KEY (u, kind, dim)
) WITHOUT ROWID;

INSERT INTO embedding_counts (u, kind, dim, n)
SELECT u, kind, dim, count(*) FROM embeddings GROUP BY u, kind, dim;

CREATE TRIGGER embeddings_count_insert AFTER INSERT ON embeddings
BEGIN
	INSERT INTO embedding_counts (u, kind, dim, n) VALUES (NEW.u, NEW.kind, NEW.dim, 1)
	ON CONFLICT (u, kind, dim) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER embeddings_count_delete AFTER DELETE ON embeddings
BEGIN
	UPDATE embedding_counts SET n = n - 1 WHERE u = OLD.u AND kind = OLD.kind AND dim = OLD.dim;
END;
