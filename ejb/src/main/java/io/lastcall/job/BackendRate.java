package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * What a rate-limited model backend has left of its per-minute limits, shared by every server:
 * one row per backend, locked by the final gate, which takes one request and the job's tokens
 * from it in the claim's transaction. It refills continuously (a token bucket holding at most one
 * minute's limit), as providers count; the provider's own {@code x-ratelimit-remaining-*} only
 * ever lowers it. A limit of 0 is no limit. Pure arithmetic on its columns, no container needed.
 */
@Entity
@Table(name = "lc_backend_rate")
public class BackendRate {

    private static final double MINUTE_MS = 60_000d;
    /** what floating-point refills may fall short by: a wait computed to the ms is never one ms short */
    private static final double SLACK = 1e-6;

    @Id
    @Column(name = "backend", length = 255)
    private String backend;

    @Column(name = "requests_left", nullable = false)
    private double requestsLeft;

    @Column(name = "tokens_left", nullable = false)
    private double tokensLeft;

    /** epoch ms up to which the refill is counted */
    @Column(name = "refilled_at", nullable = false)
    private long refilledAt;

    protected BackendRate() {
    }

    /** A backend seen for the first time: its whole minute is available. */
    public BackendRate(String backend, long now, long requestsPerMinute, long tokensPerMinute) {
        this.backend = backend;
        this.requestsLeft = requestsPerMinute;
        this.tokensLeft = tokensPerMinute;
        this.refilledAt = now;
    }

    /**
     * Takes one request and {@code tokens} (a job larger than a minute's tokens takes them all) if
     * both fit, and returns 0; else takes nothing and returns when they will have refilled (epoch ms).
     */
    public long take(long now, long tokens, long requestsPerMinute, long tokensPerMinute) {
        refill(now, requestsPerMinute, tokensPerMinute);
        double need = tokensPerMinute > 0 ? Math.min(Math.max(0, tokens), tokensPerMinute) : 0;
        double requestWait = requestsPerMinute > 0 && requestsLeft < 1 - SLACK
                ? (1 - requestsLeft) * MINUTE_MS / requestsPerMinute : 0;
        double tokenWait = tokensPerMinute > 0 && tokensLeft < need - SLACK
                ? (need - tokensLeft) * MINUTE_MS / tokensPerMinute : 0;
        if (requestWait > 0 || tokenWait > 0) {
            return now + (long) Math.ceil(Math.max(requestWait, tokenWait));
        }
        if (requestsPerMinute > 0) {
            requestsLeft -= 1;
        }
        tokensLeft -= need;
        return 0;
    }

    /** The provider's count after an answer ({@code null}: not reported) lowers ours, never raises it. */
    public void correct(long now, Long remainingRequests, Long remainingTokens, long requestsPerMinute,
            long tokensPerMinute) {
        refill(now, requestsPerMinute, tokensPerMinute);
        if (remainingRequests != null && requestsPerMinute > 0) {
            requestsLeft = Math.min(requestsLeft, remainingRequests);
        }
        if (remainingTokens != null && tokensPerMinute > 0) {
            tokensLeft = Math.min(tokensLeft, remainingTokens);
        }
    }

    /** What is left of the requests and the tokens at {@code now}, refilled: read only, nothing taken. */
    public double[] leftAt(long now, long requestsPerMinute, long tokensPerMinute) {
        double elapsed = Math.max(0, now - refilledAt);
        return new double[] {Math.min(requestsPerMinute, requestsLeft + elapsed * requestsPerMinute / MINUTE_MS),
                Math.min(tokensPerMinute, tokensLeft + elapsed * tokensPerMinute / MINUTE_MS)};
    }

    /** Adds what the time since the last refill gave back, up to one minute's limit. */
    private void refill(long now, long requestsPerMinute, long tokensPerMinute) {
        if (now <= refilledAt) {
            return; // another server's clock ran a little ahead: nothing to add yet
        }
        double[] left = leftAt(now, requestsPerMinute, tokensPerMinute);
        requestsLeft = left[0];
        tokensLeft = left[1];
        refilledAt = now;
    }

    public String getBackend() { return backend; }
    public double getRequestsLeft() { return requestsLeft; }
    public double getTokensLeft() { return tokensLeft; }
    public long getRefilledAt() { return refilledAt; }
}
