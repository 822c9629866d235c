package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OutcomeTest {

    @Test
    void everyOutcomeIsTerminalAndEveryTerminalStateHasAnOutcome() {
        for (Outcome o : Outcome.values()) {
            assertTrue(o.state().isTerminal(), o.name());
        }
        Set<JobState> covered = new LinkedHashSet<>();
        for (Outcome o : Outcome.values()) {
            covered.add(o.state());
        }
        assertEquals(JobState.terminalStates(), covered);
    }

    @Test
    void deadLetterReasonsMapToQuarantine() {
        assertEquals(Outcome.QUARANTINED_DEAD_LETTER_REJECTED, Outcome.deadLettered("rejected"));
        assertEquals(Outcome.QUARANTINED_DEAD_LETTER_DELIVERY_LIMIT, Outcome.deadLettered("delivery_limit"));
        assertEquals(Outcome.QUARANTINED_DEAD_LETTER_OTHER, Outcome.deadLettered(null));
    }

    /** The outcome table of docs/api.md lists exactly the outcomes the code can record. */
    @Test
    void theReadmeListsTheSameOutcomesAndReasons() throws IOException {
        String readme = Files.readString(Path.of("..", "docs", "api.md"));
        Matcher row = Pattern.compile("(?m)^\\| `([A-Z_]+)` \\| `([A-Z_]+)` \\|").matcher(readme);
        Set<String> documented = new LinkedHashSet<>();
        while (row.find()) {
            documented.add(row.group(1) + "/" + row.group(2));
        }
        assertEquals(new LinkedHashSet<>(Outcome.table()), documented);
    }

    @Test
    void aJobReadsBackTheOutcomeItWasEndedWith() {
        for (Outcome o : Outcome.values()) {
            assertEquals(java.util.Optional.of(o), Outcome.of(o.state(), o.reason()), o.key());
        }
        assertEquals(java.util.Optional.empty(), Outcome.of(JobState.COMPLETED, "CANCELED"), "no such pair");
        Job job = new Job("j", "w", 1, 1_000, Deadline.latestStart(60_000), "s", "r1", "m", "{}",
                java.math.BigDecimal.ONE, "rev");
        assertEquals(java.util.Optional.empty(), job.outcome(), "not ended yet");
        job.end(Outcome.EXPIRED_IN_BROKER, 2_000);
        assertEquals(java.util.Optional.of(Outcome.EXPIRED_IN_BROKER), job.outcome());
    }

    @Test
    void endingAJobClearsAnOwedPublish() {
        Job job = new Job("j", "w", 1, 1_000, Deadline.latestStart(60_000), "s", "r1", "m", "{}",
                java.math.BigDecimal.ONE, "rev");
        assertEquals(1_000L, job.getPublishRequestedAt(), "owed from acceptance");
        job.end(Outcome.EXPIRED_BEFORE_PUBLISH, 2_000);
        assertEquals(null, job.getPublishRequestedAt());
        assertEquals("BEFORE_PUBLISH", job.getReason());
        assertEquals(JobState.EXPIRED_NOT_STARTED, job.getState());
    }
}
