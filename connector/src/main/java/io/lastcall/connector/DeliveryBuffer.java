package io.lastcall.connector;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The deliveries an activation holds, unacknowledged, between the broker and its endpoint: every
 * consumer's channels add to it, and every consumer thread takes from it.
 * <ul>
 * <li>Order: without an {@code orderBy} header, arrival order; with one, lowest header value
 * first, so a wide prefetch window becomes a window the endpoint sees in that order (the value is
 * a number, epoch milliseconds say; a delivery without a readable one counts as due at its
 * arrival).</li>
 * <li>Shares: with a {@code shareBy} header, the deliveries are split by its value (a tenant, say)
 * and the shares take turns in proportion to their weights (start-time fair queuing: each share
 * carries a virtual time that grows by 1 / weight per delivery taken; the share with the lowest
 * goes next, ties to the lower order key), each share in its own order. A share that was empty
 * starts at the current virtual time, so idleness earns no credit. Without a header everything is
 * one share, and the order alone decides.</li>
 * </ul>
 * A delivery whose channel closed meanwhile is skipped by whoever takes it: the broker redelivers
 * it, and its tag would mean nothing on a new channel.
 */
final class DeliveryBuffer {

    /** A delivery, the queue and channel it came from, and its place in the order. */
    record Inbound(String queue, Channel channel, Delivery delivery, long orderKey, long arrival) {
    }

    private static final Comparator<Inbound> ORDER =
            Comparator.comparingLong(Inbound::orderKey).thenComparingLong(Inbound::arrival);
    /** Shares kept while empty (their virtual time, so a share cannot leave and come back ahead). */
    private static final int EMPTY_SHARES_KEPT = 1_000;

    /** One value of the share header: its deliveries in order, and how much it has been served. */
    private static final class Share {
        final PriorityQueue<Inbound> held = new PriorityQueue<>(16, ORDER);
        final double step;
        double virtualTime;

        Share(double weight) {
            this.step = 1 / weight;
        }
    }

    private final String orderBy;
    private final String shareBy;
    private final Map<String, Double> weights;
    private final Map<String, Share> shares = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition added = lock.newCondition();
    private double virtualNow;
    private long arrivals;
    private int size;

    /** @param orderBy a header name, or blank for arrival order */
    DeliveryBuffer(String orderBy) {
        this(orderBy, "", Map.of());
    }

    /**
     * @param shareBy a header name, or blank for one share
     * @param weights weight per header value (absent: 1)
     */
    DeliveryBuffer(String orderBy, String shareBy, Map<String, Double> weights) {
        this.orderBy = orderBy == null ? "" : orderBy.trim();
        this.shareBy = shareBy == null ? "" : shareBy.trim();
        this.weights = Map.copyOf(weights);
    }

    void add(String queue, Channel channel, Delivery delivery) {
        lock.lock();
        try {
            long arrival = arrivals++;
            Inbound inbound = new Inbound(queue, channel, delivery, orderBy.isEmpty() ? arrival : orderKey(delivery),
                    arrival);
            Share share = share(shareBy.isEmpty() ? "" : text(header(delivery, shareBy)));
            if (share.held.isEmpty()) {
                share.virtualTime = Math.max(share.virtualTime, virtualNow);
            }
            share.held.add(inbound);
            size++;
            added.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The next delivery (the most underserved share's first in order), waiting at most {@code timeoutMs}; null if none came. */
    Inbound take(long timeoutMs) throws InterruptedException {
        long left = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        lock.lockInterruptibly();
        try {
            while (size == 0) {
                if (left <= 0) {
                    return null;
                }
                left = added.awaitNanos(left);
            }
            Share next = null;
            for (Share share : shares.values()) {
                if (!share.held.isEmpty() && (next == null || share.virtualTime < next.virtualTime
                        || share.virtualTime == next.virtualTime
                        && ORDER.compare(share.held.peek(), next.held.peek()) < 0)) {
                    next = share;
                }
            }
            virtualNow = next.virtualTime;
            next.virtualTime += next.step;
            size--;
            return next.held.poll();
        } finally {
            lock.unlock();
        }
    }

    /** Deliveries received and not yet taken (some may belong to channels closed since). */
    int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    private Share share(String value) {
        Share share = shares.get(value);
        if (share == null) {
            if (shares.size() >= EMPTY_SHARES_KEPT) {
                // an empty share no further ahead than now would restart at now anyway
                shares.values().removeIf(s -> s.held.isEmpty() && s.virtualTime <= virtualNow);
            }
            share = new Share(weights.getOrDefault(value, 1.0));
            shares.put(value, share);
        }
        return share;
    }

    private static Object header(Delivery delivery, String name) {
        Map<String, Object> headers = delivery.getProperties() == null ? null : delivery.getProperties().getHeaders();
        return headers == null ? null : headers.get(name);
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private long orderKey(Delivery delivery) {
        Object value = header(delivery, orderBy);
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
