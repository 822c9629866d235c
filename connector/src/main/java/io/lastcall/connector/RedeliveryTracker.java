package io.lastcall.connector;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts failed deliveries per message so that a message that keeps failing is rejected without
 * requeue (to the queue's dead-letter exchange) instead of looping: nack with requeue redelivers
 * at once, forever. Classic queues carry no delivery count, so the count is kept here, per
 * activation and per server lifetime; a quorum queue's {@code x-delivery-count} is honoured when
 * present and survives restarts.
 */
final class RedeliveryTracker {

    private static final int MAX_TRACKED = 10_000;

    private final int maxRedeliveries;
    private final Map<String, Integer> failures = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > MAX_TRACKED;
        }
    };

    RedeliveryTracker(int maxRedeliveries) {
        this.maxRedeliveries = maxRedeliveries;
    }

    /** Failures recorded so far for this message. */
    synchronized int failuresSoFar(String key, Integer brokerDeliveryCount) {
        int tracked = failures.getOrDefault(key, 0);
        return brokerDeliveryCount == null ? tracked : Math.max(tracked, brokerDeliveryCount);
    }

    /**
     * Records one more failed delivery.
     *
     * @return true if the message may be requeued for another delivery, false if it has used up
     *     its {@code maxRedeliveries} and must be rejected without requeue
     */
    synchronized boolean failedMayRequeue(String key, Integer brokerDeliveryCount) {
        int count = failuresSoFar(key, brokerDeliveryCount) + 1;
        if (count > maxRedeliveries) {
            failures.remove(key);
            return false;
        }
        failures.put(key, count);
        return true;
    }

    synchronized void succeeded(String key) {
        failures.remove(key);
    }
}
