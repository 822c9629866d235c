/**
 * The worker path (SPEC §3): {@link io.lastcall.dispatch.Worker} takes one received reference
 * through receipt, the permit wait ({@link io.lastcall.dispatch.DispatchPermits}), the final
 * gate, the handoff and the call ({@link io.lastcall.dispatch.ModelClient}), then settles.
 * Every state change is one short transaction in {@link io.lastcall.dispatch.JobLedger}, which
 * locks the job row, so two deliveries of one job can never both claim it.
 */
package io.lastcall.dispatch;
