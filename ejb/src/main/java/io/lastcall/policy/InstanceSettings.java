package io.lastcall.policy;

/**
 * This server on a shared ledger: its instance id and its boot's lease.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class InstanceSettings {

    private final ConfigReader config;

    InstanceSettings(ConfigReader config) {
        this.config = config;
    }

    /**
     * This server's instance id ({@code lastcall.instance.id}), recorded on every attempt it claims;
     * defaults to the host name. Several servers on one ledger must each have their own.
     */
    public String id() {
        return config.text("lastcall.instance.id", defaultInstanceId());
    }

    /**
     * How long a server boot's lease holds without a renewal ({@code lastcall.instance.lease-ms});
     * it is renewed every quarter of that. After it lapses, another server closes what that boot
     * left. Longer than the longest stall a live server may have (a GC pause, a database failover).
     */
    public long leaseMs() {
        return Math.max(1_000, config.number("lastcall.instance.lease-ms", 30_000));
    }

    private static String defaultInstanceId() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "lastcall";
        }
    }
}
