-- Erasing a current member of a ranked list wrote a removal event that named the
-- erased fact and held its value, after the fact's own events had been deleted: the
-- erased value stayed in the database. The write path no longer writes it; this
-- deletes those left by earlier versions (every other event's fact still exists,
-- since an erasure deletes the fact's events with it).
DELETE FROM list_events e WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE f.id = e.fact_id);
