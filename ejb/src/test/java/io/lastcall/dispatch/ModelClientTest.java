package io.lastcall.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ModelClientTest {

    @Test
    void readsUsageAndContentOfAChatCompletion() {
        ModelResult r = ModelClient.parse(200, "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}],"
                + "\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":7}}");
        assertEquals(ModelResult.Kind.COMPLETED, r.kind());
        assertEquals(11L, r.promptTokens());
        assertEquals(7L, r.completionTokens());
        assertEquals("ok", r.content());
    }

    @Test
    void anUnreadableAnswerStillCountsAsCompletedWithoutUsage() {
        ModelResult r = ModelClient.parse(200, "<html>");
        assertEquals(ModelResult.Kind.COMPLETED, r.kind());
        assertNull(r.promptTokens());
    }
}
