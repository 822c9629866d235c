package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.ingress.Rejection;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.junit.jupiter.api.Test;

/** The OpenAPI document's reason codes for a submission are exactly the ones the code can answer. */
class SubmitResponsesTest {

    @Test
    void everyRejectionIsDocumentedUnderItsStatusAndNothingElseIs() throws Exception {
        Map<String, String> documented = Arrays.stream(JobsResource.class.getMethod("submit", InputStream.class)
                .getAnnotationsByType(APIResponse.class)).collect(Collectors.toMap(APIResponse::responseCode,
                        APIResponse::description));
        for (Rejection r : Rejection.values()) {
            String description = documented.getOrDefault(String.valueOf(r.status()), "");
            assertTrue(description.matches("(.*[ ,])?" + r.name() + "(,.*)?"), r + " under " + r.status());
        }
        long listed = documented.values().stream().flatMap(d -> Arrays.stream(d.split(",\\s*")))
                .filter(code -> code.matches("[A-Z_]+")).count();
        assertEquals(Rejection.values().length, listed, "no reason code documented that the code never answers");
    }
}
