-- Leases (io.lastcall.instance): every running server boot renews its row every lease/4; a boot
-- whose row is older than lastcall.instance.lease-ms is gone, and any other server's reconciler
-- closes the attempts it left (docs/design.md, rule 0b). Keyed by boot: two boots never share a row.
CREATE TABLE lc_instance_lease (
    boot_id VARCHAR(64) NOT NULL PRIMARY KEY,
    instance_id VARCHAR(128) NOT NULL,
    started_at BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);
CREATE INDEX lc_instance_lease_heartbeat ON lc_instance_lease (heartbeat_at);
