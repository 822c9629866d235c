package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class LedgerExportTest {

    @Test
    void aCellThatASpreadsheetWouldEvaluateIsNeutralised() {
        assertEquals("\"'=HYPERLINK(\"\"x\"\")\"", LedgerExport.csvCell("=HYPERLINK(\"x\")"));
        assertEquals("'+1", LedgerExport.csvCell("+1"));
        assertEquals("'-job", LedgerExport.csvCell("-job"));
        assertEquals("'@sum", LedgerExport.csvCell("@sum"));
        assertEquals("-0.5", LedgerExport.csvCell(new BigDecimal("-0.5")), "a number is a number");
        assertEquals("job-1", LedgerExport.csvCell("job-1"));
        assertEquals("\"a,b\"", LedgerExport.csvCell("a,b"));
    }

    @Test
    void theColumnsAreTheRowsComponentsInSnakeCase() {
        assertEquals(java.util.List.of("job_id", "workload", "state", "reason", "submitted_by", "expires_at",
                "accepted_at", "published_at", "received_at", "permit_at", "checked_at", "handed_off_at", "finished_at",
                "estimate", "estimate_revision", "attempt_id", "attempt_state", "instance_id", "prompt_tokens",
                "completion_tokens", "usage_missing", "cost", "reserved", "http_status", "check_to_last_byte_ms",
                "late"), LedgerExport.COLUMNS, "what scripts read: a change here is a change of the API");
        ExportRow row = new ExportRow("j", "w", "COMPLETED", "ON_TIME", "u", 2L, 1L, null, null, null, null, null, null,
                BigDecimal.ONE, "r", "a", "COMPLETED", "i", 3L, 4L, false, BigDecimal.TEN, BigDecimal.ZERO, 200, 1L,
                false);
        assertEquals(LedgerExport.COLUMNS.size(), row.values().size());
        assertEquals("j", row.values().get(0));
        assertEquals(1L, row.values().get(LedgerExport.COLUMNS.indexOf("check_to_last_byte_ms")));
    }
}
