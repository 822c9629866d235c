/**
 * Settings that shape decisions, read from MicroProfile Config: per-workload policy
 * ({@link io.lastcall.policy.WorkloadPolicy}), prices ({@link io.lastcall.policy.Pricing}) and
 * the global dispatch settings ({@link io.lastcall.policy.Settings}).
 */
package io.lastcall.policy;
