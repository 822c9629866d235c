package io.lastcall.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BackendPauseTest {

    @Test
    void theKeyIsTheBaseUrlWithoutCredentialsOrQuery() {
        assertEquals("https://api.example.test/v1", BackendPause.keyOf("https://user:secret@API.example.test/v1/?x=1"));
        assertEquals("http://127.0.0.1:14890/v1", BackendPause.keyOf(" http://127.0.0.1:14890/v1 "));
    }

    @Test
    void aPauseOnlyGrows() {
        BackendPause pause = new BackendPause("b");
        pause.pauseUntil(5_000, 0, 429);
        pause.pauseUntil(3_000, 1, 429);
        assertEquals(5_000, pause.getPausedUntil());
        pause.pauseUntil(9_000, 2, 503);
        assertEquals(9_000, pause.getPausedUntil());
        assertEquals(503, pause.getHttpStatus());
    }
}
