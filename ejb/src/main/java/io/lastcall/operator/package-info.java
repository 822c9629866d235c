/**
 * Operator commands on jobs ({@link io.lastcall.operator.OperatorCommands}): cancel a job that is
 * not claimed yet, and announce a subject's newest source revision (supersession). Both lock the
 * job row, so they are serialized with the final gate: a job is canceled or claimed, never both.
 */
package io.lastcall.operator;
