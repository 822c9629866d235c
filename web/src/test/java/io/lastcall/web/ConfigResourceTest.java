package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConfigResourceTest {

    @Test
    void aSecretIsMaskedUnderEverySpellingOfItsName() {
        for (String name : new String[] {"LASTCALL_MODEL_API_KEY", "lastcall.model.api-key", "lastcall.model.api.key",
            "lastcall.broker.password", "LASTCALL_BROKER_PASSWORD", "lastcall.workload.x.model.api.key",
            "lastcall.some.secret", "lastcall.auth.token"}) {
            assertTrue(ConfigResource.secret(name), name);
        }
    }

    @Test
    void anOrdinarySettingIsShown() {
        for (String name : new String[] {"lastcall.dispatch.permits", "LASTCALL_WORKER_PREFETCH", "lastcall.model.base.url",
            "lastcall.instance.id"}) {
            assertFalse(ConfigResource.secret(name), name);
        }
    }
}
