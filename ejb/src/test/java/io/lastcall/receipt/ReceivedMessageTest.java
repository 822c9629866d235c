package io.lastcall.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lastcall.job.Reference;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReceivedMessageTest {

    private static ReceivedMessage message(String body, String unreadable) {
        return new ReceivedMessage("m-1", "q", body, 0, false, null, unreadable);
    }

    @Test
    void aTrustedReferenceNamesItsJobForTheGroupsLock() {
        assertEquals(Optional.of("j-1"), message(new Reference("j-1", 0, 60_000, 1).toJson(), null)
                .referencedJobId(Set.of(1)));
    }

    @Test
    void anUnreadableMalformedOrUnsupportedMessageNamesNoJob() {
        String reference = new Reference("j-1", 0, 60_000, 1).toJson();
        assertEquals(Optional.empty(), message(reference, "conversion failed").referencedJobId(Set.of(1)));
        assertEquals(Optional.empty(), message("garbage", null).referencedJobId(Set.of(1)));
        assertEquals(Optional.empty(), message(null, null).referencedJobId(Set.of(1)));
        assertEquals(Optional.empty(), message(reference, null).referencedJobId(Set.of(2)));
    }
}
