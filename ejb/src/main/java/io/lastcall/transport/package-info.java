/**
 * HTTP/1.1 to a model backend, shaped by the handoff rule (docs/design.md, "Transport"): the whole
 * request is serialized into bytes before the last deadline check ({@link io.lastcall.transport.PreparedRequest}),
 * written in one write after it, and handed to the model when its last byte is written. Connections
 * are reused only as long as the server allows ({@link io.lastcall.transport.KeepAlive}) and are
 * checked for a close by the server before they are leased ({@link io.lastcall.transport.BackendPool}).
 * Answers are parsed by Apache HttpCore. Nothing here knows jobs or the ledger.
 */
package io.lastcall.transport;
