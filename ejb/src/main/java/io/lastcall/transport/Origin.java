package io.lastcall.transport;

import java.net.URI;
import java.util.Locale;

/** Where connections go: scheme, host and port (the pool keeps idle connections per origin). */
public record Origin(boolean tls, String host, int port) {

    public static Origin of(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("not an http(s) URL with a host: " + uri);
        }
        boolean tls = scheme.equals("https");
        return new Origin(tls, uri.getHost(), uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80);
    }

    @Override
    public String toString() {
        return (tls ? "https://" : "http://") + host + ":" + port;
    }
}
