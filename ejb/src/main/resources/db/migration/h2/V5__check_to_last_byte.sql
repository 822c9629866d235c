-- The handoff is the request's last byte written (no longer the start of the write): the attempt's
-- time from the last check to it is check_to_last_byte_ms.
ALTER TABLE lc_attempt ALTER COLUMN check_to_wire_ms RENAME TO check_to_last_byte_ms;
