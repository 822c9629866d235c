/**
 * lastcall's own side of RabbitMQ: connection settings from MicroProfile Config
 * ({@link io.lastcall.broker.BrokerSettings}), the queues lastcall declares at startup
 * ({@link io.lastcall.broker.BrokerTopology}), their depths ({@link io.lastcall.broker.QueueDepths})
 * and this server's consumers as the adapter reports them ({@link io.lastcall.broker.ConsumerStatus}).
 * Consuming is the connector's job.
 */
package io.lastcall.broker;
