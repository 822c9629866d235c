package io.lastcall.transport;

import org.apache.hc.core5.http.Header;

/**
 * A response as far as it was read: status, headers, the body text up to the size limit, whether
 * the body was read to its end, and how long the connection may be reused (0: not at all).
 */
public record Answer(int status, Header[] headers, String body, boolean complete, long reusableForMs) {
}
