-- A page of a list read comes from an index in the page's order, so that it costs its
-- rows (and its offset), not a sort of every row of the user: conflicts of every status
-- by creation (conflicts_status serves one status), and transcript sessions by first
-- message time.
CREATE INDEX conflicts_created ON conflicts (u, created_at, id);
CREATE INDEX transcript_sessions_first ON transcript_sessions (u, coalesce(first_at, 0), id, file);
