-- With pgvector (conditional, as 0013: applied only when the store uses it), a
-- user's vectors are found by (u, kind, item), which is unique: it becomes the key,
-- and the b-tree on (u, seq) goes. That index served the in-memory copies of the
-- real[] path, which read a user's vectors after a seq (vectors.go); pgvector's
-- searches scan a user's vectors by the key's (u, kind) prefix as well. 54 bytes a
-- vector at 1,000,000 facts (docs/scaling.md). seq stays, as the exact scan's
-- tie-break. The key's index is built anew, under an exclusive lock on the table.
ALTER TABLE embeddings DROP CONSTRAINT embeddings_pkey, DROP CONSTRAINT embeddings_kind_item_key,
	ADD CONSTRAINT embeddings_pkey PRIMARY KEY (u, kind, item);
