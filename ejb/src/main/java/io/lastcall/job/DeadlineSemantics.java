package io.lastcall.job;

/** What expires_at bounds. */
public enum DeadlineSemantics {
    /** the call must start by expires_at */
    LATEST_START,
    /** the result must be usable by expires_at: min_execution_ms is reserved at the final check */
    LATEST_USEFUL_COMPLETION
}
