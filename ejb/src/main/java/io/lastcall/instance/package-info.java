/**
 * Which server boots are alive. Every boot ({@link io.lastcall.instance.Incarnation}) renews a
 * lease row in the ledger; when a boot stops renewing it (killed, frozen, cut off from the
 * database) for longer than {@code lastcall.instance.lease-ms}, any other server's reconciler
 * closes the attempts it left: handed off → OUTCOME_UNKNOWN (SERVER_LOST), only claimed →
 * revoked and re-admitted (the reconciler's CloseLapsedLeases).
 */
package io.lastcall.instance;
