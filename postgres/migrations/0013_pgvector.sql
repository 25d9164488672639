-- Vectors as pgvector's type (docs/pgvector.md). Unlike the other migrations this one
-- is conditional: the store applies it only when it uses pgvector (the extension is
-- in the database, or the role may create it, and Options.NoPgvector is not set),
-- and the store adds the extension's schema to the search path for it. A database
-- created without the extension has it applied at the first start with it,
-- possibly after later migrations, so it depends on the embeddings table alone.
--
-- embeddings.vec becomes a vector without a type modifier, so that one column
-- holds every embedder's dimension; each dimension searched gets its own partial
-- HNSW index on (vec::vector(N)) WHERE dim = N, which the store builds in the
-- background (CREATE INDEX CONCURRENTLY) at the first search of that dimension
-- (pgvector_index.go). The table is rewritten once, under an exclusive lock.

-- A component that is not finite was never a usable vector, and pgvector refuses
-- one: such a row goes, so that re-embedding writes the item's vector anew.
DELETE FROM embeddings WHERE EXISTS (SELECT 1 FROM unnest(vec) AS x
	WHERE x = 'NaN'::real OR x = 'Infinity'::real OR x = '-Infinity'::real);

ALTER TABLE embeddings DROP CONSTRAINT embeddings_check; -- cardinality(vec) = dim
ALTER TABLE embeddings ALTER COLUMN vec TYPE vector USING vec::vector;
ALTER TABLE embeddings ADD CONSTRAINT embeddings_check CHECK (vector_dims(vec) = dim);

-- Deletions were counted for the in-memory copies of the real[] path (vectors.go);
-- with the vectors searched in the database nothing reads the count.
DROP TRIGGER embeddings_delete ON embeddings;

-- Each user's vectors per dimension (beside 0012's embedding_counts, per model, which
-- is kept row by row), which a search weighs to walk the dimension's
-- index or scan the user's vectors exactly (pgvector.go: hnswPlan). Kept by statement
-- triggers, once per statement whatever its rows (an erasure's batch is one update
-- per dimension); a user's rows change only under the user's write lock.
CREATE TABLE embedding_dims (
	u   uuid    NOT NULL,
	dim integer NOT NULL,
	n   bigint  NOT NULL,
	PRIMARY KEY (u, dim)
);
INSERT INTO embedding_dims (u, dim, n) SELECT u, dim, count(*) FROM embeddings GROUP BY u, dim;

CREATE FUNCTION embeddings_dims_inserts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO embedding_dims (u, dim, n) SELECT u, dim, count(*) FROM inserted GROUP BY u, dim
	ON CONFLICT (u, dim) DO UPDATE SET n = embedding_dims.n + excluded.n;
	RETURN NULL;
END;
$$;
CREATE TRIGGER embeddings_dims_inserts AFTER INSERT ON embeddings
	REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION embeddings_dims_inserts();

CREATE FUNCTION embeddings_dims_deletes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE embedding_dims c SET n = c.n - d.n
	FROM (SELECT u, dim, count(*) AS n FROM deleted GROUP BY u, dim) d
	WHERE c.u = d.u AND c.dim = d.dim;
	RETURN NULL;
END;
$$;
CREATE TRIGGER embeddings_dims_deletes AFTER DELETE ON embeddings
	REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION embeddings_dims_deletes();
