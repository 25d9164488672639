-- Vectors per user, kind, dimension and embedder model, kept by a trigger, so that a
-- search can tell, without reading the user's vectors, whether every one of them was
-- made by the embedder it asks with (SearchReadTx.VectorModels). Vectors of another
-- model are not comparable with the query's, and a search that mixed them would rank
-- the items that have them below those that do not (see memory/retrieve).
--
-- A user's writes are serialised by the lock on the user's row, so the counts of one
-- user are not contended. A row whose vectors all went stays with n = 0; reads skip it.
CREATE TABLE embedding_counts (
	u     uuid    NOT NULL,
	kind  text    NOT NULL,
	dim   integer NOT NULL,
	model text    NOT NULL,
	n     bigint  NOT NULL,
	PRIMARY KEY (u, kind, dim, model)
);

INSERT INTO embedding_counts (u, kind, dim, model, n)
SELECT u, kind, dim, model, count(*) FROM embeddings GROUP BY u, kind, dim, model;

CREATE FUNCTION embeddings_count_models() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO embedding_counts (u, kind, dim, model, n) VALUES (NEW.u, NEW.kind, NEW.dim, NEW.model, 1)
		ON CONFLICT (u, kind, dim, model) DO UPDATE SET n = embedding_counts.n + 1;
	ELSE
		UPDATE embedding_counts SET n = n - 1
		WHERE u = OLD.u AND kind = OLD.kind AND dim = OLD.dim AND model = OLD.model;
	END IF;
	RETURN NULL;
END;
$$;
CREATE TRIGGER embeddings_count_models AFTER INSERT OR DELETE ON embeddings FOR EACH ROW
	EXECUTE FUNCTION embeddings_count_models();
