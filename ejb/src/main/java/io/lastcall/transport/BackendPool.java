package io.lastcall.transport;

import java.io.IOException;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Idle connections per origin, most recently used first. A lease takes the freshest idle
 * connection that is still within its keep-alive and that the server has not closed (checked
 * with a 1 ms read), else opens a new one; connections past their keep-alive are closed on every
 * lease and release and by {@link #evictExpired}.
 */
public final class BackendPool implements AutoCloseable {

    private final Map<Origin, Deque<BackendConnection>> idle = new ConcurrentHashMap<>();

    /** A connection ready to write: an idle one checked just now, or a new one. */
    public BackendConnection lease(Origin origin, long connectTimeoutMs) throws IOException {
        Deque<BackendConnection> connections = idle.computeIfAbsent(origin, o -> new ConcurrentLinkedDeque<>());
        BackendConnection c;
        while ((c = connections.pollFirst()) != null) {
            if (c.usableAt(System.nanoTime())) {
                return c;
            }
            c.close();
        }
        return BackendConnection.open(origin, connectTimeoutMs);
    }

    /** Back to the pool for {@code reusableForMs}, or closed when that is 0. */
    public void release(BackendConnection connection, long reusableForMs) {
        if (reusableForMs <= 0 || connection.aborted()) {
            connection.close();
            return;
        }
        long now = System.nanoTime();
        connection.idleFor(reusableForMs, now);
        Deque<BackendConnection> connections = idle.computeIfAbsent(connection.origin(),
                o -> new ConcurrentLinkedDeque<>());
        connections.offerFirst(connection);
        closeExpired(connections, now);
    }

    /** Closes every idle connection whose keep-alive is over (run periodically). */
    public void evictExpired() {
        long now = System.nanoTime();
        idle.values().forEach(connections -> closeExpired(connections, now));
    }

    /** Idle connections now, for tests and health. */
    public int idleCount() {
        return idle.values().stream().mapToInt(Deque::size).sum();
    }

    private static void closeExpired(Deque<BackendConnection> connections, long now) {
        // the oldest are at the end
        BackendConnection last;
        while ((last = connections.peekLast()) != null && last.expiredAt(now)) {
            if (connections.removeLastOccurrence(last)) {
                last.close();
            }
        }
    }

    @Override
    public void close() {
        idle.values().forEach(connections -> {
            BackendConnection c;
            while ((c = connections.pollFirst()) != null) {
                c.close();
            }
        });
    }
}
