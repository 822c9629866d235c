package io.lastcall.policy;

/**
 * How jobs waiting for a dispatch permit are ordered ({@code lastcall.dispatch.order}): earliest
 * deadline first, or first come first served.
 */
public enum DispatchOrder { EDF, FIFO }
