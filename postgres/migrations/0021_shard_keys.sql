-- Shardable by user (docs/scaling.md): every primary key, unique constraint and
-- foreign key between per-user tables includes the user, and every trigger that
-- reaches into another table names the user, so that the schema can be distributed
-- by user (Citus: create_distributed_table on u, users on id, co-located) or
-- partitioned by a hash of it. Keys that were unique alone (a fact's seq or id) are
-- now unique per user, which is all any statement asks of them: every statement
-- names the user.
--
-- The tables that are not per user stay as they were: schema_migrations and
-- api_keys (reference tables) and the job queue and the audit log (local to the
-- coordinator); postgres/shard_test.go lists them with the reasons.
--
-- The table of which facts each saved sheet names gains the user's column, filled
-- from the sheets. Each constraint is rebuilt in this one transaction, under an
-- exclusive lock on its table: on a large database, stop the servers first.
--
-- Two changes found by the scale benchmark (factbase bench scale) ride along: the
-- index of vectors by (u, seq) goes, being the new key, and the counts of vectors
-- per model are kept once per statement.

-- References point at their fact by (user, seq).
ALTER TABLE fact_references DROP CONSTRAINT fact_references_fact_fkey;
ALTER TABLE sheet_facts DROP CONSTRAINT sheet_facts_sheet_fkey;

ALTER TABLE facts DROP CONSTRAINT facts_pkey, ADD CONSTRAINT facts_pkey PRIMARY KEY (u, seq);
ALTER TABLE facts DROP CONSTRAINT facts_id_key, ADD CONSTRAINT facts_id_key UNIQUE (u, id);

ALTER TABLE list_events DROP CONSTRAINT list_events_pkey, ADD CONSTRAINT list_events_pkey PRIMARY KEY (u, seq);

ALTER TABLE episodes DROP CONSTRAINT episodes_pkey, ADD CONSTRAINT episodes_pkey PRIMARY KEY (u, seq);
ALTER TABLE episodes DROP CONSTRAINT episodes_id_key, ADD CONSTRAINT episodes_id_key UNIQUE (u, id);

ALTER TABLE embeddings DROP CONSTRAINT embeddings_pkey, ADD CONSTRAINT embeddings_pkey PRIMARY KEY (u, seq);
DROP INDEX embeddings_user; -- (u, seq), the key's own columns now
ALTER TABLE embeddings DROP CONSTRAINT embeddings_kind_item_key, ADD CONSTRAINT embeddings_kind_item_key UNIQUE (u, kind, item);

ALTER TABLE fact_references DROP CONSTRAINT fact_references_pkey, ADD CONSTRAINT fact_references_pkey PRIMARY KEY (u, seq);
ALTER TABLE fact_references ADD CONSTRAINT fact_references_fact_fkey
	FOREIGN KEY (u, fact) REFERENCES facts (u, seq) ON DELETE CASCADE;

ALTER TABLE sheets DROP CONSTRAINT sheets_pkey, ADD CONSTRAINT sheets_pkey PRIMARY KEY (u, seq);
ALTER TABLE sheets DROP CONSTRAINT sheets_id_key, ADD CONSTRAINT sheets_id_key UNIQUE (u, id);

ALTER TABLE sheet_facts ADD COLUMN u uuid;
UPDATE sheet_facts sf SET u = s.u FROM sheets s WHERE s.seq = sf.sheet;
ALTER TABLE sheet_facts ALTER COLUMN u SET NOT NULL;
ALTER TABLE sheet_facts DROP CONSTRAINT sheet_facts_pkey, ADD CONSTRAINT sheet_facts_pkey PRIMARY KEY (u, fact, sheet);
ALTER TABLE sheet_facts ADD CONSTRAINT sheet_facts_sheet_fkey
	FOREIGN KEY (u, sheet) REFERENCES sheets (u, seq) ON DELETE CASCADE;

-- The triggers that delete or scrub rows of another table name the user, so that
-- each reaches only the shard of the row that fired it (and the keys above serve
-- their look-ups).
CREATE OR REPLACE FUNCTION facts_drop_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM embeddings WHERE u = OLD.u AND kind = 'fact' AND item = OLD.seq;
	RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION episodes_drop_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM embeddings WHERE u = OLD.u AND kind = 'episode' AND item = OLD.seq;
	RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION sheets_scrub_fact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE sheets SET
		entries = coalesce((SELECT jsonb_agg(e.v ORDER BY e.ord) FROM jsonb_array_elements(sheets.entries) WITH ORDINALITY e (v, ord)
			WHERE e.v ->> 'fact_id' IS DISTINCT FROM OLD.id), '[]'::jsonb),
		dedup = coalesce((SELECT jsonb_agg(e.v ORDER BY e.ord) FROM jsonb_array_elements(sheets.dedup) WITH ORDINALITY e (v, ord)
			WHERE e.v ->> 'dropped' IS DISTINCT FROM OLD.id AND e.v ->> 'kept' IS DISTINCT FROM OLD.id), '[]'::jsonb),
		count = (SELECT count(*) FROM jsonb_array_elements(sheets.entries) e (v)
			WHERE e.v ->> 'fact_id' IS DISTINCT FROM OLD.id)
	WHERE u = OLD.u AND seq IN (SELECT sf.sheet FROM sheet_facts sf WHERE sf.u = OLD.u AND sf.fact = OLD.seq);
	DELETE FROM sheet_facts WHERE u = OLD.u AND fact = OLD.seq;
	RETURN OLD;
END;
$$;

-- The counts of vectors per model (0012) are kept once per statement, as those per
-- dimension are (0013), rather than once per row: a batch of a hundred vectors
-- updated its user's count a hundred times, each leaving a dead row version.
DROP TRIGGER embeddings_count_models ON embeddings;
DROP FUNCTION embeddings_count_models();

CREATE FUNCTION embeddings_models_inserts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO embedding_counts (u, kind, dim, model, n)
	SELECT u, kind, dim, model, count(*) FROM inserted GROUP BY u, kind, dim, model
	ON CONFLICT (u, kind, dim, model) DO UPDATE SET n = embedding_counts.n + excluded.n;
	RETURN NULL;
END;
$$;
CREATE TRIGGER embeddings_models_inserts AFTER INSERT ON embeddings
	REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION embeddings_models_inserts();

CREATE FUNCTION embeddings_models_deletes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE embedding_counts c SET n = c.n - d.n
	FROM (SELECT u, kind, dim, model, count(*) AS n FROM deleted GROUP BY u, kind, dim, model) d
	WHERE c.u = d.u AND c.kind = d.kind AND c.dim = d.dim AND c.model = d.model;
	RETURN NULL;
END;
$$;
CREATE TRIGGER embeddings_models_deletes AFTER DELETE ON embeddings
	REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION embeddings_models_deletes();
