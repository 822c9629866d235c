package io.lastcall.transport;

import org.apache.hc.core5.http.Header;

/**
 * What a backend says is left of its limits after an answer: {@code x-ratelimit-remaining-requests}
 * and {@code x-ratelimit-remaining-tokens} (null: not sent or not a whole number). Pure.
 */
public record RateRemaining(Long requests, Long tokens) {

    public static final RateRemaining UNKNOWN = new RateRemaining(null, null);

    public static RateRemaining of(Header[] headers) {
        Long requests = null;
        Long tokens = null;
        for (Header header : headers) {
            if (header.getName().equalsIgnoreCase("x-ratelimit-remaining-requests")) {
                requests = count(header.getValue());
            } else if (header.getName().equalsIgnoreCase("x-ratelimit-remaining-tokens")) {
                tokens = count(header.getValue());
            }
        }
        return requests == null && tokens == null ? UNKNOWN : new RateRemaining(requests, tokens);
    }

    public boolean known() {
        return requests != null || tokens != null;
    }

    private static Long count(String value) {
        String v = value == null ? "" : value.trim();
        return v.matches("\\d{1,18}") ? Long.valueOf(v) : null;
    }
}
