package io.lastcall.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The look just before the write ({@link BackendConnection#stillSilent}) against the kernel's own
 * TCP peer: it must see a close, a reset and unasked bytes, and leave a silent connection usable
 * for the blocking write and read that follow.
 */
class BackendConnectionTest {

    private ServerSocket server;
    private BackendConnection connection;
    private Socket peer;

    @BeforeEach
    void connect() throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        connection = BackendConnection.open(new Origin(false, "127.0.0.1", server.getLocalPort()), 2_000);
        peer = server.accept();
    }

    @AfterEach
    void close() throws IOException {
        connection.close();
        peer.close();
        server.close();
    }

    /** What the connection says once what the peer did has had time to arrive (loopback: microseconds). */
    private boolean stillSilentAfterArrival() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (connection.stillSilent() && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        return connection.stillSilent();
    }

    @Test
    void aSilentConnectionStaysUsableForTheWriteAndTheAnswer() throws Exception {
        assertTrue(connection.stillSilent());
        assertTrue(connection.stillSilent());
        PreparedRequest request = PreparedRequest.post(URI.create("http://127.0.0.1/v1"), Map.of(), "text/plain",
                "hi".getBytes(StandardCharsets.US_ASCII));
        connection.write(request);
        InputStream in = peer.getInputStream();
        byte[] got = in.readNBytes(request.length());
        assertEquals(new String(request.bytes(), StandardCharsets.US_ASCII), new String(got, StandardCharsets.US_ASCII));
        peer.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
        Answer answer = connection.read(1_000, System.nanoTime() + TimeUnit.SECONDS.toNanos(5), 800);
        assertEquals(200, answer.status());
        assertEquals("ok", answer.body());
    }

    @Test
    void aCloseIsSeen() throws Exception {
        peer.close();
        assertFalse(stillSilentAfterArrival());
    }

    @Test
    void aResetIsSeen() throws Exception {
        peer.setSoLinger(true, 0);
        peer.close();
        assertFalse(stillSilentAfterArrival());
    }

    @Test
    void bytesNobodyAskedForAreSeen() throws Exception {
        peer.getOutputStream().write("HTTP/1.1 408 Request Timeout\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertFalse(stillSilentAfterArrival());
    }
}
