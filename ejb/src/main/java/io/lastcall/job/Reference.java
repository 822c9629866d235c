package io.lastcall.job;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * What a broker message carries: a reference to a ledger job, never the payload.
 * {@code {"job_id":"…","generation":0,"expires_at":1764680000000,"schema_version":1}}
 */
public record Reference(String jobId, long generation, long expiresAt, int schemaVersion) {

    /**
     * The AMQP header carrying {@link #expiresAt()} (epoch ms) beside the body, so the adapter can
     * order the deliveries it holds by it without reading bodies.
     */
    public static final String EXPIRES_AT_HEADER = "x-lastcall-expires-at";

    /**
     * The AMQP header carrying the job's tenant, so the adapter can share the deliveries it holds
     * out between tenants without reading bodies.
     */
    public static final String TENANT_HEADER = "x-lastcall-tenant";

    /** What ingress accepts as a job id; a reference to anything else is malformed. */
    public static final java.util.regex.Pattern JOB_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

    /** Why a message body is not a usable reference. */
    public static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        public Malformed(String message) {
            super(message);
        }
    }

    public String toJson() {
        return JsonText.objectBuilder().add("job_id", jobId).add("generation", generation)
                .add("expires_at", expiresAt).add("schema_version", schemaVersion).build().toString();
    }

    public static Reference parse(String body) throws Malformed {
        if (body == null || body.isBlank()) {
            throw new Malformed("empty message body");
        }
        JsonObject o;
        try (JsonReader reader = JsonText.reader(body)) {
            o = reader.readObject();
        } catch (RuntimeException e) {
            // JsonException, or the parser's own limits (Parsson throws a bare RuntimeException for
            // nesting deeper than 1,000): either way not a reference
            throw new Malformed("not a JSON object: " + e.getMessage());
        }
        JsonValue id = o.get("job_id");
        if (!(id instanceof JsonString s) || s.getString().isBlank()) {
            throw new Malformed("job_id missing or not a string");
        }
        if (!JOB_ID.matcher(s.getString()).matches()) {
            // no job ingress accepted can have it: never looked up (U+0000 would not even reach PostgreSQL)
            throw new Malformed("job_id is not 1-128 characters of A-Z a-z 0-9 . _ : @ -");
        }
        long schema = wholeNumber(o, "schema_version");
        if (schema < Integer.MIN_VALUE || schema > Integer.MAX_VALUE) {
            throw new Malformed("schema_version out of range");
        }
        return new Reference(s.getString(), wholeNumber(o, "generation"), wholeNumber(o, "expires_at"), (int) schema);
    }

    private static long wholeNumber(JsonObject o, String field) throws Malformed {
        JsonValue v = o.get(field);
        if (!(v instanceof JsonNumber n) || !n.isIntegral()) {
            throw new Malformed(field + " missing or not a whole number");
        }
        try {
            return n.longValueExact();
        } catch (ArithmeticException e) {
            throw new Malformed(field + " out of range");
        }
    }
}
