-- embedding_counts also counts by embedder model, so that a search can tell, without
-- reading the user's vectors, whether every one of them was made by the embedder it
-- asks with (SearchReadTx.VectorModels). Vectors of another model are not
-- comparable with the query's, and a search that mixed them would rank the items that
-- have them below those that do not (see memory/retrieve).
--
-- The table keeps one row per user, kind, dimension and model; the k-NN's count of a
-- user's vectors of one kind and dimension sums its rows (few: one per model used).
-- A row whose vectors all went stays with n = 0; reads skip it.
DROP TRIGGER embeddings_count_insert;
DROP TRIGGER embeddings_count_delete;
DROP TABLE embedding_counts;

CREATE TABLE embedding_counts (
	u     INTEGER NOT NULL,
	kind  TEXT    NOT NULL,
	dim   INTEGER NOT NULL,
	model TEXT    NOT NULL,
	n     INTEGER NOT NULL,
	PRIMARY KEY (u, kind, dim, model)
) WITHOUT ROWID;

INSERT INTO embedding_counts (u, kind, dim, model, n)
SELECT u, kind, dim, model, count(*) FROM embeddings GROUP BY u, kind, dim, model;

CREATE TRIGGER embeddings_count_insert AFTER INSERT ON embeddings
BEGIN
	INSERT INTO embedding_counts (u, kind, dim, model, n) VALUES (NEW.u, NEW.kind, NEW.dim, NEW.model, 1)
	ON CONFLICT (u, kind, dim, model) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER embeddings_count_delete AFTER DELETE ON embeddings
BEGIN
	UPDATE embedding_counts SET n = n - 1
	WHERE u = OLD.u AND kind = OLD.kind AND dim = OLD.dim AND model = OLD.model;
END;
