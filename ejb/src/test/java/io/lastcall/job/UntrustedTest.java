package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UntrustedTest {

    @Test
    void nulCharactersBecomeStorableAndLongValuesAreCutToTheColumn() {
        assertEquals("a\\u0000b", Untrusted.text("a\u0000b", 100));
        String cut = Untrusted.text("x".repeat(250), 200);
        assertEquals(200, cut.length());
        assertTrue(cut.endsWith("[cut]"));
        assertNull(Untrusted.text(null, 10));
        assertEquals("short", Untrusted.text("short", 200));
    }

    @Test
    void aSurrogatePairIsNeverSplit() {
        String cut = Untrusted.text("a".repeat(193) + "😀" + "b".repeat(20), 200);
        assertFalse(Character.isHighSurrogate(cut.charAt(cut.indexOf('…') - 1)), cut);
    }
}
