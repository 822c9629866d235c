package io.lastcall.metrics;

/**
 * The calls whose latencies are alike enough to predict one another: the same backend, the same
 * model, and answers of about the same length. Output length counts by powers of four from 64
 * tokens (max_tokens × n up to 64, 256, 1,024, …): a model's time grows with what it writes, and
 * wider buckets fill with samples sooner.
 */
public record LatencyClass(String backend, String model, long outputTokensUpTo) {

    static final long SMALLEST_BUCKET = 64;

    public static LatencyClass of(String backend, String model, long outputTokens) {
        long upTo = SMALLEST_BUCKET;
        while (upTo < outputTokens && upTo <= Long.MAX_VALUE / 4) {
            upTo *= 4;
        }
        return new LatencyClass(backend, model, upTo);
    }
}
