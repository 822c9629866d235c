package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JsonBodyTest {

    @Test
    void anObjectIsRead() {
        assertEquals("b", JsonBody.object("{\"a\":\"b\"}").orElseThrow().getString("a"));
    }

    @Test
    void anythingElseIsEmptyNeverAnException() {
        assertTrue(JsonBody.object(null).isEmpty());
        assertTrue(JsonBody.object("").isEmpty());
        assertTrue(JsonBody.object("[1]").isEmpty());
        assertTrue(JsonBody.object("{\"a\":").isEmpty());
        // beyond the parser's nesting limit (a bare RuntimeException from it): a 400, not a 500
        assertTrue(JsonBody.object("{\"a\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}").isEmpty());
    }
}
