-- Sealed stores (the twin of sqlite/migrations/0023_sealed.sql).
--
-- A store that keeps sealed texts (internal/seal) gives each fact and episode its
-- index text: the hashed words the full-text index holds in place of the row's own
-- text, which is ciphertext. The store builds a row's tsvector from them (weight A,
-- the key or the tags left out) when it writes the row, and keeps them in terms
-- (NULL: the row indexes its own texts, as before): a reseal (factbase.ResealStore)
-- that rewrites a plain row's texts rebuilds its tsvector from them, and leaves a
-- row with terms as it was; and the tsvector of a sealed row can be rebuilt from
-- terms alone.
--
-- The hashed words ("t" and 16 hex digits) pass the English configuration whole:
-- the parser reads them as words of letters and digits (numword, not stemmed), or,
-- rarely, of letters only (asciiword, stemmed), which a query of the same word
-- stems alike. storetest's SealedIndex checks both.
--
-- settings holds the database's own named values (the sealed store's key record):
-- not a user's, so it has no user column.

ALTER TABLE facts ADD COLUMN terms text;
ALTER TABLE episodes ADD COLUMN terms text;

CREATE TABLE settings (
	name  text COLLATE "C" PRIMARY KEY,
	value text NOT NULL
);
