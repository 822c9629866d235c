package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReferenceTest {

    @Test
    void roundTrips() throws Exception {
        Reference r = new Reference("inc-42-r7", 3, 1_764_680_000_000L, 1);
        assertEquals(r, Reference.parse(r.toJson()));
    }

    @Test
    void malformedReferencesAreNamed() {
        assertEquals("empty message body", assertThrows(Reference.Malformed.class, () -> Reference.parse(" ")).getMessage());
        assertThrows(Reference.Malformed.class, () -> Reference.parse("hello"));
        assertEquals("expires_at missing or not a whole number", assertThrows(Reference.Malformed.class,
                () -> Reference.parse("{\"job_id\":\"a\",\"generation\":0,\"expires_at\":\"soon\",\"schema_version\":1}"))
                .getMessage());
        assertThrows(Reference.Malformed.class,
                () -> Reference.parse("{\"job_id\":\"a\",\"generation\":0,\"expires_at\":1.5,\"schema_version\":1}"));
        assertThrows(Reference.Malformed.class,
                () -> Reference.parse("{\"generation\":0,\"expires_at\":1,\"schema_version\":1}"));
    }

    @Test
    void aBodyNestedBeyondTheParsersLimitIsMalformed() {
        // found by ReferencePropertiesTest: the parser refuses nesting deeper than 1,000 with a bare RuntimeException
        String deep = "{\"generation\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";
        assertTrue(assertThrows(Reference.Malformed.class, () -> Reference.parse(deep)).getMessage()
                .startsWith("not a JSON object"));
    }

    @Test
    void aJobIdIngressCouldNeverHaveAcceptedIsMalformed() {
        assertThrows(Reference.Malformed.class, () -> Reference.parse(
                "{\"job_id\":\"a\u0000b\",\"generation\":0,\"expires_at\":1,\"schema_version\":1}"));
        assertThrows(Reference.Malformed.class, () -> Reference.parse(
                "{\"job_id\":\"" + "x".repeat(129) + "\",\"generation\":0,\"expires_at\":1,\"schema_version\":1}"));
    }
}
