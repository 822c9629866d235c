package io.lastcall.connector;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The deliveries an activation holds, unacknowledged, between the broker and its endpoint: every
 * consumer's channels add to it, and every consumer thread takes from it. Without an
 * {@code orderBy} header they are taken in arrival order; with one, lowest header value first,
 * so a wide prefetch window becomes a window the endpoint sees in that order (the header's value
 * is a number, epoch milliseconds say; a delivery without a readable one counts as due at its
 * arrival). A delivery whose channel closed meanwhile is skipped by whoever takes it: the broker
 * redelivers it, and its tag would mean nothing on a new channel.
 */
final class DeliveryBuffer {

    /** A delivery, the queue and channel it came from, and its place in the order. */
    record Inbound(String queue, Channel channel, Delivery delivery, long orderKey, long arrival) {
    }

    private static final Comparator<Inbound> ORDER =
            Comparator.comparingLong(Inbound::orderKey).thenComparingLong(Inbound::arrival);

    private final String orderBy;
    private final PriorityBlockingQueue<Inbound> held = new PriorityBlockingQueue<>(64, ORDER);
    private final AtomicLong arrivals = new AtomicLong();

    /** @param orderBy a header name, or blank for arrival order */
    DeliveryBuffer(String orderBy) {
        this.orderBy = orderBy == null ? "" : orderBy.trim();
    }

    void add(String queue, Channel channel, Delivery delivery) {
        long arrival = arrivals.getAndIncrement();
        held.add(new Inbound(queue, channel, delivery, orderBy.isEmpty() ? arrival : orderKey(delivery), arrival));
    }

    /** The first delivery in order, waiting at most {@code timeoutMs}; null if none came. */
    Inbound take(long timeoutMs) throws InterruptedException {
        return held.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Deliveries received and not yet taken (some may belong to channels closed since). */
    int size() {
        return held.size();
    }

    private long orderKey(Delivery delivery) {
        Map<String, Object> headers = delivery.getProperties() == null ? null : delivery.getProperties().getHeaders();
        Object value = headers == null ? null : headers.get(orderBy);
        if (value instanceof Number n) {
            return n.longValue();
        }
        if (value != null) {
            try {
                return Long.parseLong(value.toString().trim());
            } catch (NumberFormatException notANumber) {
                // ordered as due now, below
            }
        }
        return System.currentTimeMillis();
    }
}
