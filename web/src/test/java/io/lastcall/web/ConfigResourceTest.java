package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void credentialsInsideAValueAreMasked() {
        assertEquals("amqp://lastcall:****@broker:5672,http://a:****@h/v1",
                ConfigResource.masked("amqp://lastcall:s3cret@broker:5672,http://a:b@h/v1"));
        assertEquals("jdbc:postgresql://h/db?user=x&password=****&ssl=true",
                ConfigResource.masked("jdbc:postgresql://h/db?user=x&password=pw&ssl=true"));
        assertEquals("http://127.0.0.1:14890/v1", ConfigResource.masked("http://127.0.0.1:14890/v1"));
    }

    @Test
    void anOrdinarySettingIsShown() {
        for (String name : new String[] {"lastcall.dispatch.permits", "LASTCALL_WORKER_PREFETCH", "lastcall.model.base.url",
            "lastcall.instance.id"}) {
            assertFalse(ConfigResource.secret(name), name);
        }
    }
}
