/**
 * The reconciler (docs/design.md §5): {@link io.lastcall.reconcile.Reconciler}
 * runs every rule on a schedule and on demand; each rule is its own class whose one transaction
 * re-checks a single job under its row lock ({@link io.lastcall.reconcile.ClosePreviousBoots},
 * {@link io.lastcall.reconcile.RepublishOwed}, {@link io.lastcall.reconcile.ExpireOverdue},
 * {@link io.lastcall.reconcile.RevokeLostClaims}, {@link io.lastcall.reconcile.MarkSilentHandoffs}),
 * so servers and workers may run at once without a double transition.
 * {@link io.lastcall.reconcile.LedgerStats} computes the figures and the invariant.
 */
package io.lastcall.reconcile;
