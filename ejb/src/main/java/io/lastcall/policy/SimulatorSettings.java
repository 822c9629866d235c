package io.lastcall.policy;

/**
 * The simulated model endpoint: whether it answers at all, and how slowly and how much.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class SimulatorSettings {

    private final ConfigReader config;

    SimulatorSettings(ConfigReader config) {
        this.config = config;
    }

    /** Off unless asked for ({@code ./lastcall up} turns it on): a production server has no fake model. */
    public boolean enabled() {
        return config.flag("lastcall.simulator.enabled", false);
    }

    public long latencyMs() {
        return config.number("lastcall.simulator.latency-ms", 500);
    }

    public long completionTokens() {
        return config.number("lastcall.simulator.completion-tokens", 64);
    }
}
