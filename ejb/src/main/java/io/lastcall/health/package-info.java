/** Readiness facts the health resource reports: database reachability, broker consumers. */
package io.lastcall.health;
