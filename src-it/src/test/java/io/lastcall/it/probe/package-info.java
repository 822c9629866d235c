/**
 * Test-only MDBs, packaged by the tests as an extra EJB module of the lastcall EAR and bound to
 * the same embedded adapter ({@code lastcall#lastcall-connector}). They record through the real
 * {@link io.lastcall.receipt.DeliveryLog}, so the tests read their rows from the real REST API.
 */
package io.lastcall.it.probe;
