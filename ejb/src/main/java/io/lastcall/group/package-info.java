/**
 * Group commit ({@link io.lastcall.group.GroupCommit}): many threads' small writes recorded by one
 * thread in one transaction each round, every caller answered for its own item, a failed group
 * handed back item by item. Plain Java, no container and nothing of jobs: the ledger's groups
 * (worker receipt and gate, handoff, settlement, single submissions) give it what to record.
 */
package io.lastcall.group;
