package io.lastcall.job;

/** Where an EXPIRED_NOT_STARTED job ran out of time. */
public enum ExpiryReason {
    BEFORE_PUBLISH, IN_BROKER, BEFORE_DISPATCH, RECONCILED
}
