package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RevisionOrderTest {

    @Test
    void numbersAfterTheSamePrefixCompareAsNumbers() {
        assertTrue(RevisionOrder.isOlder("r7", "r8"));
        assertTrue(RevisionOrder.isOlder("r9", "r10"), "not lexicographic");
        assertFalse(RevisionOrder.isOlder("r9", "r8"), "announcing r8 never supersedes r9");
        assertFalse(RevisionOrder.isOlder("r8", "r8"));
        assertTrue(RevisionOrder.isOlder("41", "42"));
    }

    @Test
    void instantsCompareAsInstants() {
        assertTrue(RevisionOrder.isOlder("2026-12-03T09:00:00Z", "2026-12-03T10:00:00Z"));
        assertFalse(RevisionOrder.isOlder("2026-12-03T10:00:00Z", "2026-12-03T09:00:00Z"));
    }

    @Test
    void incomparableRevisionsAreNeverTakenAsOlder() {
        assertEquals(Optional.empty(), RevisionOrder.compare("abc", "def"));
        assertEquals(Optional.empty(), RevisionOrder.compare("r7", "v8"));
        assertFalse(RevisionOrder.isOlder("abc", "def"));
    }

    @Test
    void anAnnouncementNeverMovesTheSubjectBackwards() {
        SubjectRevision subject = new SubjectRevision("INC-1", "r9", 1);
        subject.announce("r8", 2);
        assertEquals("r9", subject.getLatestRevision());
        assertFalse(subject.supersedes("r9"));
        assertTrue(subject.supersedes("r8"));
        subject.announce("r10", 3);
        assertEquals("r10", subject.getLatestRevision());
    }
}
