package io.lastcall.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsumerSettingsTest {

    private static RabbitActivationSpec spec(String queue) {
        RabbitActivationSpec spec = new RabbitActivationSpec();
        spec.setQueue(queue);
        return spec;
    }

    private static ConfigLookup config(Map<String, String> values) {
        return key -> Optional.ofNullable(values.get(key));
    }

    @Test
    void defaultsApplyWhenNothingIsSet() {
        ConsumerSettings s = ConsumerSettings.resolve(spec("q"), ConfigLookup.NONE);
        assertEquals("127.0.0.1:5672", s.brokers());
        assertEquals("/", s.virtualHost());
        assertEquals(ConsumerSettings.DEFAULT_PREFETCH, s.prefetch());
        assertEquals(1, s.consumers());
        assertEquals(5, s.maxRedeliveries());
    }

    @Test
    void configUnderThePrefixOverridesTheAnnotation() {
        RabbitActivationSpec spec = spec("from-annotation");
        spec.setConnectionConfig("lastcall.broker");
        spec.setConsumerConfig("lastcall.worker");
        spec.setPrefetch("10");
        spec.setHost("annotation-host");
        ConsumerSettings s = ConsumerSettings.resolve(spec, config(Map.of(
                "lastcall.broker.host", "broker.example",
                "lastcall.broker.password", "secret",
                "lastcall.worker.queue", "from-config",
                "lastcall.worker.prefetch", "3")));
        assertEquals("broker.example:5672", s.brokers());
        assertEquals("secret", s.password());
        assertEquals("from-config", s.queue());
        assertEquals(3, s.prefetch());
    }

    @Test
    void withoutAPrefixConfigIsNotConsulted() {
        RabbitActivationSpec spec = spec("q");
        ConsumerSettings s = ConsumerSettings.resolve(spec, config(Map.of("lastcall.worker.queue", "other")));
        assertEquals("q", s.queue());
    }

    @Test
    void everyProblemIsNamedInOneMessage() {
        RabbitActivationSpec spec = new RabbitActivationSpec();
        spec.setConsumerConfig("lastcall.worker");
        spec.setPrefetch("0");
        spec.setPort("many");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsumerSettings.resolve(spec, ConfigLookup.NONE));
        assertTrue(e.getMessage().contains("queue is required (set lastcall.worker.queue)"), e.getMessage());
        assertTrue(e.getMessage().contains("prefetch from activation property prefetch is '0': must be between 1"),
                e.getMessage());
        assertTrue(e.getMessage().contains("port from activation property port is 'many': not a whole number"),
                e.getMessage());
    }

    @Test
    void addressesListTheNodesOfAClusterAndOverrideHostAndPort() {
        RabbitActivationSpec spec = spec("q");
        spec.setConnectionConfig("lastcall.broker");
        spec.setHost("ignored");
        ConsumerSettings s = ConsumerSettings.resolve(spec, config(Map.of(
                "lastcall.broker.addresses", " node-a:5672, node-b ,node-c:5673")));
        assertEquals("node-a:5672,node-b:5672,node-c:5673", s.brokers());
        assertEquals(List.of("node-a", "node-b", "node-c"), hosts(s.addressesFor(1)));
        assertEquals(List.of("node-b", "node-c", "node-a"), hosts(s.addressesFor(2)));
        assertEquals(List.of("node-c", "node-a", "node-b"), hosts(s.addressesFor(3)));
        assertEquals(List.of("node-a", "node-b", "node-c"), hosts(s.addressesFor(4)));
        assertTrue(s.describe().contains("amqp://guest@node-a:5672,node-b:5672,node-c:5673/"), s.describe());
    }

    @Test
    void aMalformedAddressIsNamed() {
        RabbitActivationSpec spec = spec("q");
        spec.setAddresses("node-a:5672,node-b:port,");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsumerSettings.resolve(spec, ConfigLookup.NONE));
        assertTrue(e.getMessage().contains("addresses from activation property addresses is 'node-a:5672,node-b:port,'"
                + ": each entry must be host or host:port (port 1-65535), not 'node-b:port'"), e.getMessage());
    }

    private static List<String> hosts(List<com.rabbitmq.client.Address> addresses) {
        return addresses.stream().map(com.rabbitmq.client.Address::getHost).toList();
    }

    @Test
    void describeLeavesThePasswordOut() {
        RabbitActivationSpec spec = spec("q");
        spec.setPassword("hunter2");
        ConsumerSettings s = ConsumerSettings.resolve(spec, ConfigLookup.NONE);
        assertTrue(!s.describe().contains("hunter2") && !s.toString().contains("hunter2"));
    }

    @Test
    void environmentFallbackUsesMicroProfileNameMapping() {
        // PATH is always set; MicroProfile's mapping upper-cases and turns dots into underscores
        assertEquals(Optional.ofNullable(System.getenv("PATH")), ConfigLookup.systemOrEnvironment("path"));
    }
}
