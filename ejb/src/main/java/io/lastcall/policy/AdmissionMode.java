package io.lastcall.policy;

import java.util.Locale;

/**
 * Predictive admission ({@code lastcall.admission.predictive}, per workload
 * {@code lastcall.workload.<name>.predictive-admission}): whether the final gate refuses a
 * {@code LATEST_USEFUL_COMPLETION} job whose answer the model's live p95 latency puts after the
 * deadline. {@code shadow} records the forecast on the job instead, so an operator can see what
 * {@code on} would refuse and how often it would be wrong before turning it on.
 */
public enum AdmissionMode {
    OFF, SHADOW, ON;

    /** {@code off}, {@code shadow} or {@code on}, any case; anything else is a configuration error naming the key. */
    public static AdmissionMode parse(String key, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be off, shadow or on, not " + value);
        }
    }
}
