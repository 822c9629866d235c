package io.lastcall.job;

/**
 * Makes a value that came from outside (a broker message, a header, a producer's id) storable
 * as-is in any ledger column: U+0000, which PostgreSQL text cannot hold, is written as the
 * six characters {@code \u0000}, and the result is cut to the column's length with a marker.
 * A quarantine or delivery row must always be writable, whatever a producer sent.
 */
public final class Untrusted {

    /** The most of a message body the ledger keeps (quarantine and delivery log). */
    public static final int MAX_BODY_CHARS = 64 * 1024;

    private static final String CUT = "…[cut]";

    private Untrusted() {
    }

    public static String text(String value, int maxLength) {
        if (value == null) {
            return null;
        }
        String storable = value.indexOf('\u0000') < 0 ? value : value.replace("\u0000", "\\u0000");
        if (storable.length() <= maxLength) {
            return storable;
        }
        int keep = Math.max(0, maxLength - CUT.length());
        if (keep > 0 && Character.isHighSurrogate(storable.charAt(keep - 1))) {
            keep--;
        }
        return storable.substring(0, keep) + CUT;
    }
}
