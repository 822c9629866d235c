/**
 * Receipt of broker messages: every message the worker queue delivers is recorded as a
 * {@link io.lastcall.receipt.DeliveryRecord} (message id, queue, body, received time, redelivered
 * flag) in the delivery's own container-managed transaction, by
 * {@link io.lastcall.receipt.DeliveryLog}. The worker queue's MDB (dispatch) records through it.
 */
package io.lastcall.receipt;
