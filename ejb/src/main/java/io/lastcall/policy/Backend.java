package io.lastcall.policy;

/**
 * The model backend a workload's calls go to, as the ledger knows it: its key (see
 * {@link io.lastcall.job.BackendPause#keyOf}: one pause and one rate row per key, on every server)
 * and the limits it declares per minute (0: none).
 */
public record Backend(String key, long requestsPerMinute, long tokensPerMinute) {

    public Backend {
        requestsPerMinute = Math.max(0, requestsPerMinute);
        tokensPerMinute = Math.max(0, tokensPerMinute);
    }

    /**
     * The share of a declared limit lastcall plans for. A provider counts a request when it
     * arrives, a few ms after the claim that took it here and not always in claim order; run at
     * exactly the limit, that jitter alone would draw 429s. 5 % below it, the provider's own
     * bucket keeps a little room that grows with every request.
     */
    public static final double PLANNED_SHARE = 0.95;

    /** Requests per minute lastcall hands out (0: no limit). */
    public long plannedRequestsPerMinute() {
        return planned(requestsPerMinute);
    }

    /** Tokens per minute lastcall hands out (0: no limit). */
    public long plannedTokensPerMinute() {
        return planned(tokensPerMinute);
    }

    private static long planned(long limit) {
        return limit == 0 ? 0 : Math.max(1, (long) Math.floor(limit * PLANNED_SHARE));
    }

    /** Whether either limit is set: then every claim takes from the backend's rate row. */
    public boolean rateLimited() {
        return requestsPerMinute > 0 || tokensPerMinute > 0;
    }
}
