package io.lastcall.connector;

/**
 * What an activation reports over JMX, under
 * {@code io.lastcall.connector:type=Activation,name=<queue>}. Read by the application's health
 * resource with plain JMX attribute names, so it never links against this class.
 */
public interface ActivationStatusMXBean {

    String getQueue();

    String getBroker();

    int getConsumersConfigured();

    /** Consumers whose channel is open and registered with basic.consume right now. */
    int getConsumersConnected();

    int getPrefetch();

    /** "arrival", or the header whose lowest value goes to the endpoint first. */
    String getOrderBy();

    /** The header whose values share the held deliveries by weight, or "" when they are one share. */
    String getShareBy();

    /** Deliveries received from the broker, not yet acknowledged, waiting for a consumer thread. */
    int getHeld();

    long getDelivered();

    long getAcknowledged();

    /** Nacked with requeue after an exception or a rollback. */
    long getRequeued();

    /** Rejected without requeue after maxRedeliveries, i.e. sent to the dead-letter exchange. */
    long getRejected();

    /** Deliveries held back because the endpoint reported an infrastructure failure (pauseOn). */
    long getPaused();

    /** Queues of this activation that cannot be consumed now (missing, deleted), comma-separated; the others go on. */
    String getMissingQueues();

    String getLastError();

    /** Epoch ms of the last error, 0 if none. */
    long getLastErrorAt();
}
