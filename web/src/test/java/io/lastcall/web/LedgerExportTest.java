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
}
