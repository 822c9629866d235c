package io.lastcall.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.junit.jupiter.api.Test;

class KeepAliveTest {

    private static BasicClassicHttpResponse response(HttpVersion version, String... headers) {
        BasicClassicHttpResponse r = new BasicClassicHttpResponse(200);
        r.setVersion(version);
        for (int i = 0; i < headers.length; i += 2) {
            r.addHeader(headers[i], headers[i + 1]);
        }
        return r;
    }

    @Test
    void http11WithALengthIsKeptForLastcallsKeepAlive() {
        assertEquals(800, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Content-Length", "5"), true, 800));
        assertEquals(800, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Transfer-Encoding", "chunked"),
                true, 800));
    }

    @Test
    void whatTheServerSaysCloses() {
        assertEquals(0, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_0, "Content-Length", "5"), true, 800));
        assertEquals(0, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Content-Length", "5",
                "Connection", "keep-alive, Close"), true, 800));
        assertEquals(0, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1), true, 800), "body ends with the close");
        assertEquals(0, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Content-Length", "5"), false, 800),
                "not read to its end");
        assertEquals(0, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Content-Length", "5"), true, 0));
    }

    @Test
    void anAnnouncedTimeoutShortensTheKeepAlive() {
        assertEquals(800, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Content-Length", "5",
                "Keep-Alive", "timeout=1, max=100"), true, 5_000));
        assertEquals(800, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Content-Length", "5",
                "Keep-Alive", "timeout=60"), true, 800));
        assertEquals(0, KeepAlive.reusableForMs(response(HttpVersion.HTTP_1_1, "Content-Length", "5",
                "Keep-Alive", "timeout=0"), true, 800));
        assertNull(KeepAlive.timeoutSeconds("max=5, timeout=x"));
    }
}
