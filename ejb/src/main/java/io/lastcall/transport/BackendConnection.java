package io.lastcall.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.DefaultBHttpClientConnection;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * One TCP (or TLS) connection to a backend. Requests go out as prepared bytes in one write on
 * the socket; answers are parsed by HttpCore's client connection bound to the same socket.
 * {@link #abort} closes the socket from another thread (the call's watchdog), which ends a write
 * or read blocked on it.
 */
public final class BackendConnection {

    private final Origin origin;
    private final Socket socket;
    /** The plain connection's channel, for a look at what arrived without waiting; null with TLS. */
    private final SocketChannel channel;
    private final Http http;
    private volatile boolean aborted;
    private long idleUntilNanos;

    private BackendConnection(Origin origin, Socket socket, SocketChannel channel) throws IOException {
        this.origin = origin;
        this.socket = socket;
        this.channel = channel;
        this.http = new Http();
        http.bind(socket);
    }

    /** Connects (and for https completes the TLS handshake) within {@code timeoutMs}. */
    static BackendConnection open(Origin origin, long timeoutMs) throws IOException {
        long started = System.nanoTime();
        SocketChannel channel = SocketChannel.open();
        Socket plain = channel.socket(); // blocking, as a plain Socket; the channel only looks ahead
        try {
            plain.setTcpNoDelay(true); // the last segment of a request goes out at once
            plain.connect(new InetSocketAddress(origin.host(), origin.port()), (int) Math.max(1, timeoutMs));
            if (!origin.tls()) {
                return new BackendConnection(origin, plain, channel);
            }
            long left = timeoutMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (left < 1) {
                throw new IOException("no time left for the TLS handshake with " + origin);
            }
            SSLSocket tls = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                    .createSocket(plain, origin.host(), origin.port(), true);
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            tls.setSSLParameters(parameters);
            tls.setSoTimeout((int) left);
            tls.startHandshake();
            tls.setSoTimeout(0);
            return new BackendConnection(origin, tls, null);
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    Origin origin() {
        return origin;
    }

    /**
     * Whether an idle connection may carry a request now: within its keep-alive and
     * {@link #serverSilent() silent}.
     */
    boolean usableAt(long nowNanos) {
        return nowNanos - idleUntilNanos < 0 && serverSilent();
    }

    /**
     * Whether the server has neither closed nor reset this connection nor sent anything unasked
     * (a server that answers an idle connection with a 408 before closing it). One read of at most
     * 1 ms; a close that is already there is seen at once.
     */
    public boolean serverSilent() {
        return !aborted && http.silentFor(Timeout.ofMilliseconds(1));
    }

    /**
     * The same question just before the write, without waiting: nothing may have been read from
     * the connection since it was found {@link #serverSilent silent} (or opened), so only what
     * arrived since counts, and on a plain connection one non-blocking read sees it — a close, a
     * reset or bytes — at once. (A TLS connection pays {@link #serverSilent}'s 1 ms: bytes there
     * may be the protocol's own, such as a session ticket, only TLS can tell.)
     */
    public boolean stillSilent() {
        if (aborted || channel == null) {
            return serverSilent();
        }
        try {
            synchronized (channel.blockingLock()) {
                channel.configureBlocking(false);
                try {
                    return channel.read(ByteBuffer.allocate(1)) == 0;
                } finally {
                    channel.configureBlocking(true);
                }
            }
        } catch (IOException closedOrReset) {
            return false;
        }
    }

    /** Whether its keep-alive is over by {@code nowNanos} (it is closed without a read). */
    boolean expiredAt(long nowNanos) {
        return nowNanos - idleUntilNanos >= 0;
    }

    void idleFor(long ms, long nowNanos) {
        idleUntilNanos = nowNanos + TimeUnit.MILLISECONDS.toNanos(ms);
    }

    /** Writes the whole request; returns normally only when its last byte was handed to the socket. */
    public void write(PreparedRequest request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.bytes());
        out.flush();
    }

    /**
     * Reads the answer: skips interim (1xx) responses, then reads at most {@code maxBytes} of the
     * body. Each read waits at most until {@code endNanos}; the watchdog bounds the total.
     */
    public Answer read(int maxBytes, long endNanos, long keepAliveMs) throws IOException, HttpException {
        timeoutUntil(endNanos);
        ClassicHttpResponse response = http.receiveResponseHeader();
        while (response.getCode() < 200) {
            response = http.receiveResponseHeader();
        }
        http.receiveResponseEntity(response);
        if (response.getEntity() == null) {
            return new Answer(response.getCode(), response.getHeaders(), "", true,
                    KeepAlive.reusableForMs(response, true, keepAliveMs));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] chunk = new byte[8_192];
        boolean complete = true;
        try (InputStream in = response.getEntity().getContent()) {
            int n;
            while ((n = in.read(chunk)) >= 0) {
                body.write(chunk, 0, Math.min(n, maxBytes - body.size()));
                if (body.size() >= maxBytes) {
                    complete = false;
                    break;
                }
                timeoutUntil(endNanos);
            }
        }
        return new Answer(response.getCode(), response.getHeaders(), body.toString(StandardCharsets.UTF_8), complete,
                KeepAlive.reusableForMs(response, complete, keepAliveMs));
    }

    private void timeoutUntil(long endNanos) throws java.net.SocketTimeoutException {
        long left = TimeUnit.NANOSECONDS.toMillis(endNanos - System.nanoTime());
        if (left < 1) {
            throw new java.net.SocketTimeoutException("the call's time is up");
        }
        http.setSocketTimeout(Timeout.ofMilliseconds(left));
    }

    /** Closes the socket from any thread; a write or read blocked on it fails at once. */
    public void abort() {
        aborted = true;
        close();
    }

    public boolean aborted() {
        return aborted;
    }

    public void close() {
        http.close(CloseMode.IMMEDIATE);
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** HttpCore's client connection, with a probe that costs one read. */
    private static final class Http extends DefaultBHttpClientConnection {

        Http() {
            super(Http1Config.DEFAULT);
        }

        /**
         * One read of at most {@code timeout}: true only if it timed out with nothing buffered.
         * (isStale and isDataAvailable together would wait twice on a healthy connection.)
         */
        boolean silentFor(Timeout timeout) {
            try {
                awaitInput(timeout); // returns at once on buffered bytes, arrived bytes or end of stream
                return false;
            } catch (java.net.SocketTimeoutException quiet) {
                return true;
            } catch (IOException closedOrReset) {
                return false;
            }
        }
    }
}
