/**
 * lastcall's MicroProfile Health checks ({@link io.lastcall.health.ReadinessChecks}): database,
 * broker consumers and clock, from the packages that own each fact.
 */
package io.lastcall.health;
