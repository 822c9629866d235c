/**
 * The REST API under {@code /lastcall/api}: thin JAX-RS resources that delegate to the EJB
 * services and render JSON.
 */
package io.lastcall.web;
