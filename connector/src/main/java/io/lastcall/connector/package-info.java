/**
 * RabbitMQ inbound resource adapter (JCA 1.7).
 *
 * <p>{@link io.lastcall.connector.RabbitResourceAdapter} is the adapter bean; each MDB activation
 * ({@link io.lastcall.connector.RabbitActivationSpec}, resolved into
 * {@link io.lastcall.connector.ConsumerSettings}) becomes one
 * {@link io.lastcall.connector.RabbitActivation} that runs {@code consumers}
 * {@link io.lastcall.connector.ConsumerWork}s on the container's WorkManager. Each work owns its
 * AMQP connection and channel, consumes with manual acknowledgement under {@code basic.qos},
 * and hands each delivery to {@link io.lastcall.connector.EndpointDelivery}, which acks only
 * after a normal return and a committed transaction.
 *
 * <p>Nothing here knows what a message means. Status is published as a JMX MXBean
 * ({@code io.lastcall.connector:type=Activation,name=<queue>}) so that an application can report
 * it without depending on these classes.
 */
package io.lastcall.connector;
