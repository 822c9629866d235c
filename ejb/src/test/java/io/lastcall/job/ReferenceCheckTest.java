package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReferenceCheckTest {

    private static final Job JOB = new Job("j-1", "w", 1, 1_000, Deadline.latestStart(60_000), "s",
            "r1", "m", "{}", BigDecimal.ONE, "rev");

    private static ReferenceCheck.Verdict check(String body, Job job) {
        ReferenceCheck.Verdict parsed = ReferenceCheck.parse(body, Set.of(1));
        return parsed.trusted() ? ReferenceCheck.against(parsed.reference(), job) : parsed;
    }

    @Test
    void aReferenceWithTheLedgersDeadlineIsTrusted() {
        assertTrue(check(new Reference("j-1", 0, 60_000, 1).toJson(), JOB).trusted());
    }

    @Test
    void everyUntrustedMessageHasItsReason() {
        assertEquals(QuarantinedMessage.Reason.REFERENCE_MALFORMED, check("garbage", JOB).reason());
        assertEquals(QuarantinedMessage.Reason.SCHEMA_UNSUPPORTED,
                check(new Reference("j-1", 0, 60_000, 2).toJson(), JOB).reason());
        assertEquals(QuarantinedMessage.Reason.REFERENCE_UNKNOWN_JOB,
                check(new Reference("nobody", 0, 60_000, 1).toJson(), null).reason());
        assertEquals(QuarantinedMessage.Reason.REFERENCE_DEADLINE_MISMATCH,
                check(new Reference("j-1", 0, 90_000, 1).toJson(), JOB).reason(), "a producer cannot extend a deadline");
    }

    @Test
    void aSchemaVersionBeyondIntRangeIsMalformedNotTruncated() {
        assertThrows(Reference.Malformed.class, () -> Reference.parse(
                "{\"job_id\":\"a\",\"generation\":0,\"expires_at\":1,\"schema_version\":4294967297}"));
    }
}
