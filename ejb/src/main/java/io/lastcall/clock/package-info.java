/**
 * Time: the wall clock deadlines are measured with ({@link io.lastcall.clock.ClockProducer}, so
 * it can be replaced) and the clock-health check that stops admission when that clock cannot be
 * trusted ({@link io.lastcall.clock.ClockHealth}, docs/design.md §7).
 */
package io.lastcall.clock;
