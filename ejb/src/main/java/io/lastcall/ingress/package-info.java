/**
 * Trusted ingress (docs/design.md §2): {@link io.lastcall.ingress.SubmissionValidator} (pure) checks an
 * envelope against the workload's policy; {@link io.lastcall.ingress.JobIngress} persists the
 * job, publishes its reference with publisher confirms ({@link io.lastcall.ingress.ReferencePublisher})
 * and records what happened. Every refusal is a {@link io.lastcall.ingress.Rejection}.
 */
package io.lastcall.ingress;
