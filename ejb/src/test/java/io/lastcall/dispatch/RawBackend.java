package io.lastcall.dispatch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP backend on a plain server socket that behaves at the transport level as real servers
 * do, chosen per test: keep-alive with an idle timeout, close after each answer (HTTP/1.0),
 * reset in the middle of an answer, accept and never read, trickle the answer. It records every
 * request it read completely, with the instant its last byte arrived.
 */
final class RawBackend implements AutoCloseable {

    enum Behaviour { KEEP_ALIVE, CLOSE_AFTER_ANSWER, RESET_MID_ANSWER, NEVER_READ, TRICKLE }

    record Request(String head, String body, long receivedAtMillis) {
    }

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private volatile Behaviour behaviour;
    private final int idleTimeoutMs;

    RawBackend(Behaviour behaviour, int idleTimeoutMs) throws IOException {
        this.behaviour = behaviour;
        this.idleTimeoutMs = idleTimeoutMs;
        server = new ServerSocket();
        server.bind(new InetSocketAddress("127.0.0.1", 0), 50);
        threads.execute(this::accept);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    List<Request> requests() {
        return requests;
    }

    int connections() {
        return connections.get();
    }

    void behave(Behaviour next) {
        behaviour = next;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                connections.incrementAndGet();
                threads.execute(() -> serve(s));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            if (behaviour == Behaviour.NEVER_READ) {
                s.setReceiveBufferSize(1024);
                Thread.sleep(60_000);
                return;
            }
            s.setSoTimeout(idleTimeoutMs);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                Request request;
                try {
                    request = readRequest(in);
                } catch (SocketTimeoutException idle) {
                    return; // the idle timeout: close
                }
                if (request == null) {
                    return;
                }
                requests.add(request);
                byte[] body = "{\"choices\":[{\"message\":{\"content\":\"hi\"}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}"
                        .getBytes(StandardCharsets.UTF_8);
                switch (behaviour) {
                    case KEEP_ALIVE -> out.write(answer("HTTP/1.1 200 OK", body));
                    case CLOSE_AFTER_ANSWER -> {
                        out.write(answer("HTTP/1.0 200 OK", body));
                        return;
                    }
                    case RESET_MID_ANSWER -> {
                        byte[] whole = answer("HTTP/1.1 200 OK", body);
                        out.write(whole, 0, whole.length - 20);
                        out.flush();
                        s.setSoLinger(true, 0);
                        return;
                    }
                    case TRICKLE -> {
                        for (byte b : answer("HTTP/1.1 200 OK", body)) {
                            out.write(b);
                            out.flush();
                            Thread.sleep(50);
                        }
                    }
                    case NEVER_READ -> {
                    }
                }
                out.flush();
            }
        } catch (IOException | InterruptedException gone) {
            // the client went away
        }
    }

    private static byte[] answer(String statusLine, byte[] body) {
        String head = statusLine + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** One request (head and Content-Length body), or null at the end of the stream. */
    private static Request readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String headText = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : headText.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            return null;
        }
        return new Request(headText, new String(body, StandardCharsets.UTF_8), System.currentTimeMillis());
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
    }
}
