/**
 * Reading the ledger, below everything that writes it: {@link io.lastcall.ledger.LedgerQueries}
 * (jobs, attempts, searches by {@link io.lastcall.ledger.JobFilter}, the reconciler's candidates)
 * and {@link io.lastcall.ledger.LedgerStats} (counts, money and the invariant from the ended totals
 * plus the live rows, in one snapshot). Ingress, dispatch, the reconciler and the web module read
 * through here; each use case writes through its own class in its own package.
 */
package io.lastcall.ledger;
