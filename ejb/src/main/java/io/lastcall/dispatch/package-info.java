/**
 * The worker path (docs/design.md §3): {@link io.lastcall.dispatch.Worker} takes one
 * received reference through receipt, the permit wait ({@link io.lastcall.dispatch.DispatchPermits}),
 * the final gate, the connect, the handoff and the write ({@link io.lastcall.dispatch.ModelClient}),
 * then, on a call thread ({@link io.lastcall.dispatch.CallExecutor}), settles. Every state change is one short transaction in
 * {@link io.lastcall.dispatch.DispatchLedger} (dead letters: {@link io.lastcall.dispatch.DeadLetters},
 * {@link io.lastcall.dispatch.DeadLetterLedger}; stale expiries in batches: {@link io.lastcall.dispatch.StaleDeadLetters}),
 * which locks the job row, so two deliveries of one job can never both claim it. Failures of the
 * infrastructure rather than the message become {@link io.lastcall.dispatch.InfrastructureFailure}.
 */
package io.lastcall.dispatch;
