package io.lastcall.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreparedRequestTest {

    @Test
    void theWholeRequestIsOneBufferFramedByLengthWithoutExpectContinue() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Lastcall-Deadline", "123");
        byte[] body = "{\"a\":\"é\"}".getBytes(StandardCharsets.UTF_8);
        String wire = new String(PreparedRequest.post(URI.create("http://h:8080/v1/chat/completions"), headers,
                "application/json", body).bytes(), StandardCharsets.UTF_8);
        assertEquals("POST /v1/chat/completions HTTP/1.1\r\nHost: h:8080\r\nX-Lastcall-Deadline: 123\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n{\"a\":\"é\"}", wire);
        assertFalse(wire.toLowerCase().contains("expect"));
    }

    @Test
    void theDefaultPortIsNotNamed() {
        assertEquals("h", PreparedRequest.host(URI.create("https://h:443/v1")));
        assertEquals("h", PreparedRequest.host(URI.create("http://h/v1")));
        assertEquals("h:443", PreparedRequest.host(URI.create("http://h:443/v1")));
    }

    @Test
    void aHeaderThatWouldSplitTheRequestIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PreparedRequest.post(URI.create("http://h/v1"),
                Map.of("X-Lastcall-Job-Id", "a\r\nX-Evil: 1"), "application/json", new byte[0]));
    }
}
