-- Episodes, the full-text indexes of facts and episodes, and stored vectors (the twin
-- of sqlite/migrations/0004_search.sql).
--
-- Full text is PostgreSQL's own: a tsvector per row (English configuration), written
-- by the store with the row from text split into runs of letters and digits (as
-- SQLite's unicode61 tokenizer splits it), in a GIN index. A fact is indexed while it
-- is current or superseded: the index is partial on exactly that, so retracting or
-- removing a fact (current cleared, no successor) takes it out of the index by the
-- same UPDATE, and erasing it by the DELETE. Triggers delete the vectors of such facts
-- and of deleted episodes, whatever code writes the rows.
--
-- Vectors are real[] here and ranked in Go over the user's vectors (the pgvector
-- extension is not required).

CREATE TABLE episodes (
	seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id           text   COLLATE "C" NOT NULL UNIQUE,
	u            uuid   NOT NULL REFERENCES users (id),
	content      text   NOT NULL,
	tags         text[] NOT NULL DEFAULT '{}', -- lower case, sorted
	importance   double precision NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
	created_at   bigint NOT NULL,
	metadata     jsonb  NOT NULL DEFAULT '{}',
	extracted_at bigint,
	fts          tsvector NOT NULL
);
CREATE INDEX episodes_created ON episodes (u, created_at, id);
CREATE INDEX episodes_unextracted ON episodes (u, created_at, id) WHERE extracted_at IS NULL;
CREATE INDEX episodes_tags ON episodes USING gin (tags);
CREATE INDEX episodes_fts ON episodes USING gin (fts);

-- Facts' full text, and facts by their source (an episode's facts, the tag filter).
ALTER TABLE facts ADD COLUMN fts tsvector;
CREATE INDEX facts_fts ON facts USING gin (fts) WHERE current OR superseded_by <> '';
CREATE INDEX facts_source ON facts (u, source_kind, source_id);

-- One vector per item: the embedding of the model that wrote it last. A user's
-- writes are serialised by the lock on the user's row and seq is taken inside that
-- lock, so for one user seq grows in commit order: a reader that has seen every
-- vector up to seq S finds the newer ones with seq > S.
CREATE TABLE embeddings (
	seq   bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	u     uuid    NOT NULL,
	kind  text    NOT NULL CHECK (kind IN ('fact', 'episode')),
	item  bigint  NOT NULL, -- facts.seq or episodes.seq
	model text    NOT NULL,
	dim   integer NOT NULL CHECK (dim > 0),
	vec   real[]  NOT NULL CHECK (cardinality(vec) = dim),
	UNIQUE (kind, item)
);
CREATE INDEX embeddings_user ON embeddings (u, seq);

-- Vectors deleted per user, so that an in-memory copy of a user's vectors knows when
-- too many of its entries have gone.
CREATE TABLE embedding_deletes (
	u       uuid   PRIMARY KEY,
	deleted bigint NOT NULL
);

CREATE FUNCTION embeddings_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO embedding_deletes (u, deleted) VALUES (OLD.u, 1)
	ON CONFLICT (u) DO UPDATE SET deleted = embedding_deletes.deleted + 1;
	RETURN NULL;
END;
$$;
CREATE TRIGGER embeddings_delete AFTER DELETE ON embeddings FOR EACH ROW
	EXECUTE FUNCTION embeddings_count_delete();

CREATE FUNCTION facts_drop_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM embeddings WHERE kind = 'fact' AND item = OLD.seq;
	RETURN NULL;
END;
$$;
CREATE TRIGGER facts_vector_delete AFTER DELETE ON facts FOR EACH ROW
	EXECUTE FUNCTION facts_drop_vector();
-- Retracted or removed: no longer current and not replaced by a newer value.
CREATE TRIGGER facts_vector_retract AFTER UPDATE OF current ON facts FOR EACH ROW
	WHEN (OLD.current AND NOT NEW.current AND NEW.superseded_by = '')
	EXECUTE FUNCTION facts_drop_vector();

CREATE FUNCTION episodes_drop_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM embeddings WHERE kind = 'episode' AND item = OLD.seq;
	RETURN NULL;
END;
$$;
CREATE TRIGGER episodes_vector_delete AFTER DELETE ON episodes FOR EACH ROW
	EXECUTE FUNCTION episodes_drop_vector();

-- Index the facts written before this migration (the store writes the entries of new
-- facts itself).
UPDATE facts SET fts =
	setweight(to_tsvector('english', regexp_replace(text, '[^[:alnum:]]+', ' ', 'g')), 'A') ||
	setweight(to_tsvector('english', regexp_replace(key, '[^[:alnum:]]+', ' ', 'g')), 'B') ||
	setweight(to_tsvector('english', regexp_replace(value, '[^[:alnum:]]+', ' ', 'g')), 'A');
