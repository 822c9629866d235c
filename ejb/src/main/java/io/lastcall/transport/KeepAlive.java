package io.lastcall.transport;

import java.util.Locale;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.http.HttpVersion;

/**
 * Whether, and for how long, a connection may carry another request after an answer. A server
 * closes idle connections when it likes (an idle timeout, a request count, a restart); a request
 * written to a connection it is closing is lost in the close, and the client cannot tell whether it
 * ran. So a connection is reused only when the server said it may be — HTTP/1.1, no
 * {@code Connection: close}, a body framed by length or chunks and read to its end — and for no
 * longer than lastcall's own keep-alive ({@code lastcall.model.keep-alive-ms}) or 80 % of the
 * server's announced {@code Keep-Alive: timeout=}.
 */
public final class KeepAlive {

    private KeepAlive() {
    }

    /** Milliseconds the connection may stay idle in the pool; 0: close it now. */
    public static long reusableForMs(HttpResponse response, boolean bodyReadToEnd, long keepAliveMs) {
        if (!bodyReadToEnd || keepAliveMs <= 0) {
            return 0;
        }
        if (response.getVersion() == null || response.getVersion().lessEquals(HttpVersion.HTTP_1_0)) {
            return 0; // an HTTP/1.0 answer: the server closes unless both sides negotiated otherwise
        }
        for (Header connection : response.getHeaders("Connection")) {
            for (String token : connection.getValue().split(",")) {
                if (token.trim().equalsIgnoreCase("close")) {
                    return 0;
                }
            }
        }
        boolean bodyless = response.getCode() == HttpStatus.SC_NO_CONTENT || response.getCode() == HttpStatus.SC_NOT_MODIFIED;
        boolean framed = response.containsHeader("Content-Length") || chunked(response);
        if (!bodyless && !framed) {
            return 0; // the body ended with the connection
        }
        long limit = keepAliveMs;
        Header keepAlive = response.getFirstHeader("Keep-Alive");
        if (keepAlive != null) {
            Long timeout = timeoutSeconds(keepAlive.getValue());
            if (timeout != null) {
                limit = Math.min(limit, timeout * 800);
            }
        }
        return Math.max(0, limit);
    }

    private static boolean chunked(HttpResponse response) {
        Header te = response.getFirstHeader("Transfer-Encoding");
        return te != null && te.getValue().toLowerCase(Locale.ROOT).contains("chunked");
    }

    /** {@code timeout=N} of a Keep-Alive header, or null. */
    static Long timeoutSeconds(String value) {
        for (String parameter : value.split(",")) {
            String[] nameValue = parameter.trim().split("=", 2);
            if (nameValue.length == 2 && nameValue[0].trim().equalsIgnoreCase("timeout")) {
                try {
                    return Math.max(0, Long.parseLong(nameValue[1].trim()));
                } catch (NumberFormatException unreadable) {
                    return null;
                }
            }
        }
        return null;
    }
}
