package io.lastcall.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps each counter's exposed value from going down. The ledger's figures only grow (ended jobs
 * stay counted in the roll-up's totals after retention, spend in the purged spend), but on a
 * database without one snapshot for the whole reading (H2) a job being rolled up while it is read
 * can be counted twice in one scrape and once in the next; Prometheus would take that drop for a
 * reset and count the job again.
 */
final class NeverBackwards {

    private final Map<String, Double> highest = new ConcurrentHashMap<>();

    /** {@code value}, or the highest value given for {@code counter} before if that is higher. */
    double read(String counter, double value) {
        return highest.merge(counter, value, Math::max);
    }
}
