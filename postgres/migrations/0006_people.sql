-- People (the twin of sqlite/migrations/0006_people.sql): the entities a user talks
-- about, the changes to single-valued facts that wait for the user's confirmation,
-- and the sessions each communication preference was stated in. JSON is kept as the
-- text the store wrote.

CREATE TABLE entities (
	u           uuid   NOT NULL REFERENCES users (id),
	id          text   COLLATE "C" NOT NULL,
	name        text   NOT NULL DEFAULT '',
	role        text   NOT NULL,
	relation    text   NOT NULL DEFAULT '',
	aliases     text   NOT NULL DEFAULT '[]', -- JSON array of strings
	attributes  text   NOT NULL DEFAULT '{}', -- JSON object of strings
	created_at  bigint NOT NULL,
	updated_at  bigint NOT NULL,
	merged_into text   NOT NULL DEFAULT '',
	PRIMARY KEY (u, id)
);
CREATE INDEX entities_created ON entities (u, created_at, id);

CREATE TABLE conflicts (
	u             uuid   NOT NULL REFERENCES users (id),
	id            text   COLLATE "C" NOT NULL,
	subject       text   COLLATE "C" NOT NULL,
	key           text   COLLATE "C" NOT NULL,
	current_id    text   NOT NULL DEFAULT '',
	current_value text   NOT NULL DEFAULT '',
	proposed      text   NOT NULL, -- JSON of the proposed fact template
	reason        text   NOT NULL DEFAULT '',
	status        text   NOT NULL CHECK (status IN ('pending', 'confirmed', 'rejected')),
	created_at    bigint NOT NULL,
	resolved_at   bigint,
	result_id     text   NOT NULL DEFAULT '',
	PRIMARY KEY (u, id)
);
CREATE INDEX conflicts_status ON conflicts (u, status, created_at);
CREATE INDEX conflicts_subject ON conflicts (u, subject, key);
CREATE INDEX conflicts_facts ON conflicts (u, current_id);
CREATE INDEX conflicts_results ON conflicts (u, result_id);

CREATE TABLE preference_sessions (
	u       uuid NOT NULL REFERENCES users (id),
	key     text COLLATE "C" NOT NULL,
	norm    text COLLATE "C" NOT NULL,
	session text COLLATE "C" NOT NULL,
	PRIMARY KEY (u, key, norm, session)
);

-- Temporal retrieval: current facts by time anchor.
CREATE INDEX facts_anchor ON facts (u, anchor) WHERE current AND anchor IS NOT NULL;

-- Erasure is complete: a conflict copies the value of the fact it is about, so an
-- erased fact takes its conflicts with it.
CREATE FUNCTION conflicts_erase_fact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM conflicts WHERE u = OLD.u AND (current_id = OLD.id OR result_id = OLD.id);
	RETURN NULL;
END;
$$;
CREATE TRIGGER conflicts_erase AFTER DELETE ON facts FOR EACH ROW
	EXECUTE FUNCTION conflicts_erase_fact();
