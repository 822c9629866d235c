/**
 * Metrics for Prometheus ({@link io.lastcall.metrics.LastcallMetrics}): the registry and the
 * latencies recorded where they happen; bounded labels only. The ledger's and the broker's figures
 * are read into it at scrape time by the web module's metrics page.
 */
package io.lastcall.metrics;
