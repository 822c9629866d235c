package io.lastcall.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A model backend whose TCP accept is delayed: a listening socket with a backlog of one whose
 * accept queue the test fills itself, so the kernel drops further SYNs and a client's connect
 * hangs. {@link #acceptAndRecord} later accepts whatever is queued and records every byte that
 * arrives, so "no request was written" is asserted on what the backend received.
 */
final class StallingBackend implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> fillers = new ArrayList<>();

    StallingBackend(int port) throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress("127.0.0.1", port), 1);
        for (int i = 0; i < 4; i++) {
            Socket filler = new Socket();
            try {
                filler.connect(new InetSocketAddress("127.0.0.1", port), 300);
                fillers.add(filler);
            } catch (SocketTimeoutException full) {
                filler.close();
                break;
            }
        }
    }

    /** Whether a new connection would hang now (the accept queue is full). */
    boolean stalls() {
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress("127.0.0.1", server.getLocalPort()), 300);
            fillers.add(probe);
            return false;
        } catch (IOException timedOut) {
            return true;
        }
    }

    /** Accepts every queued connection and returns what each sent within {@code readMs}. */
    List<String> acceptAndRecord(long readMs) throws IOException {
        List<String> received = new ArrayList<>();
        server.setSoTimeout(200);
        while (true) {
            Socket s;
            try {
                s = server.accept();
            } catch (SocketTimeoutException none) {
                return received;
            }
            try (s) {
                s.setSoTimeout((int) readMs);
                InputStream in = s.getInputStream();
                byte[] buf = new byte[4096];
                int n;
                try {
                    n = in.read(buf);
                } catch (IOException silent) {
                    n = -1;
                }
                if (n > 0) {
                    received.add(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        for (Socket s : fillers) {
            s.close();
        }
        server.close();
    }
}
