/**
 * The reconciler (docs/design.md §5): {@link io.lastcall.reconcile.Reconciler}
 * runs every rule on a schedule and on demand; each rule is its own class whose transaction
 * re-checks its job under the row lock ({@link io.lastcall.reconcile.ClosePreviousBoots},
 * {@link io.lastcall.reconcile.RepublishOwed}, {@link io.lastcall.reconcile.RevokeLostClaims},
 * {@link io.lastcall.reconcile.MarkSilentHandoffs}) or a batch of jobs locked by one query
 * ({@link io.lastcall.reconcile.ExpireOverdue}, {@link io.lastcall.reconcile.RollUpEndedJobs},
 * {@link io.lastcall.reconcile.PurgeEndedJobs}), so servers and workers may run at once without
 * a double transition. The figures and the invariant it logs come from
 * {@link io.lastcall.ledger.LedgerStats}.
 */
package io.lastcall.reconcile;
