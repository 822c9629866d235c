package io.lastcall.transport;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP/1.1 POST as the bytes that go on the wire (request line, headers, body), made before
 * the last deadline check so that nothing but one write follows it. The body is framed by
 * {@code Content-Length}; there is no {@code Expect: 100-continue}, so nothing waits between the
 * headers and the body.
 */
public final class PreparedRequest {

    private final byte[] bytes;

    private PreparedRequest(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * @param headers in order; {@code Host}, {@code Content-Length} and {@code Content-Type} are added here
     * @throws IllegalArgumentException a header name or value that would break the request (CR, LF, non-ASCII)
     */
    public static PreparedRequest post(URI uri, Map<String, String> headers, String contentType, byte[] body) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Host", host(uri));
        all.putAll(headers);
        all.put("Content-Type", contentType);
        all.put("Content-Length", Integer.toString(body.length));
        StringBuilder head = new StringBuilder(256).append("POST ").append(target(uri)).append(" HTTP/1.1\r\n");
        all.forEach((name, value) -> head.append(checked(name, name)).append(": ").append(checked(name, value))
                .append("\r\n"));
        head.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length() + body.length);
        out.writeBytes(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return new PreparedRequest(out.toByteArray());
    }

    /** The request as written; not a copy (it is written once, by the connection). */
    byte[] bytes() {
        return bytes;
    }

    public int length() {
        return bytes.length;
    }

    static String host(URI uri) {
        int port = uri.getPort();
        boolean defaultPort = port < 0 || ("http".equalsIgnoreCase(uri.getScheme()) && port == 80)
                || ("https".equalsIgnoreCase(uri.getScheme()) && port == 443);
        return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    }

    private static String target(URI uri) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }

    private static String checked(String header, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 && c != '\t' || c > 0x7e) {
                throw new IllegalArgumentException("header " + header + " has a character that cannot be sent"
                        + " (code " + (int) c + " at " + i + ")");
            }
        }
        return text;
    }
}
