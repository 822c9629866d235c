/**
 * Integration tests against a real Payara domain, RabbitMQ and database. Helpers:
 * {@link io.lastcall.it.Deployments} (the EAR under test), {@link io.lastcall.it.Broker}
 * (AMQP and rabbitmqctl), {@link io.lastcall.it.Api} and {@link io.lastcall.it.Jobs} (the REST
 * API), {@link io.lastcall.it.DispatchSpy} (the recording model backend), {@link io.lastcall.it.Await}.
 */
package io.lastcall.it;
