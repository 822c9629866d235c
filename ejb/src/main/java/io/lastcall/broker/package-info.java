/**
 * lastcall's own side of RabbitMQ: connection settings from MicroProfile Config
 * ({@link io.lastcall.broker.BrokerSettings}) and the queues lastcall declares at startup
 * ({@link io.lastcall.broker.BrokerTopology}). Consuming is the connector's job.
 */
package io.lastcall.broker;
