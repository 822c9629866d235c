/**
 * Metrics for Prometheus ({@link io.lastcall.metrics.LastcallMetrics}): latencies recorded where
 * they happen, ledger and broker figures read at scrape time; bounded labels only.
 */
package io.lastcall.metrics;
