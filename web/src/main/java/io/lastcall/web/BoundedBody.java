package io.lastcall.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A request body read with a cap ({@code lastcall.ingress.max-body-bytes}): the text, or empty
 * when it is larger. The rest of an oversized body is read and discarded up to 16 times the cap,
 * so that the client, still sending, gets the 413 instead of a reset connection.
 */
final class BoundedBody {

    private static final int DRAIN_FACTOR = 16;

    private BoundedBody() {
    }

    static Optional<String> read(InputStream in, long maxBytes) throws IOException {
        if (in == null) {
            return Optional.of("");
        }
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        byte[] chunk = new byte[16 * 1024];
        long total = 0;
        int n;
        while ((n = in.read(chunk)) >= 0) {
            total += n;
            if (total <= maxBytes) {
                kept.write(chunk, 0, n);
            } else if (total > maxBytes * DRAIN_FACTOR) {
                break;
            }
        }
        return total > maxBytes ? Optional.empty() : Optional.of(kept.toString(StandardCharsets.UTF_8));
    }
}
