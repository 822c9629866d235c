package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The filter takes the JSON submissions JAX-RS's @Consumes would take, leaves the rest to JAX-RS
 * (415), and lets in whom the resource method's security scopes name.
 */
class JobSubmitFilterTest {

    @Test
    void jsonWithOrWithoutParametersInAnyCaseIsTaken() {
        assertTrue(JobSubmitFilter.json("application/json"));
        assertTrue(JobSubmitFilter.json("application/json; charset=UTF-8"));
        assertTrue(JobSubmitFilter.json("Application/JSON;charset=utf-8"));
    }

    @Test
    void anythingElseGoesOnToJaxRs() {
        assertFalse(JobSubmitFilter.json(null));
        assertFalse(JobSubmitFilter.json(""));
        assertFalse(JobSubmitFilter.json("text/plain"));
        assertFalse(JobSubmitFilter.json("application/json-patch+json"));
        assertFalse(JobSubmitFilter.json("application/x-www-form-urlencoded"));
    }

    @Test
    void theRolesAreTheResourceMethodsScopes() {
        assertArrayEquals(new String[] {Roles.SUBMITTER}, JobSubmitFilter.submitRoles());
    }
}
