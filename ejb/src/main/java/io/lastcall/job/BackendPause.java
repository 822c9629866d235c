package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.net.URI;
import java.util.Locale;

/**
 * A model backend that asked not to be called until a given instant (a {@code 429}'s
 * {@code Retry-After}, or its rate-limit reset): one row per backend, read by every server's final
 * gate, so the pause holds for the whole fleet. It only ever grows within a pause; one that has
 * passed is simply over.
 */
@Entity
@Table(name = "lc_backend_pause")
public class BackendPause {

    @Id
    @Column(name = "backend", length = 255)
    private String backend;

    /** epoch ms by the recording server's clock */
    @Column(name = "paused_until", nullable = false)
    private long pausedUntil;

    @Column(name = "paused_at", nullable = false)
    private long pausedAt;

    @Column(name = "http_status")
    private Integer httpStatus;

    protected BackendPause() {
    }

    public BackendPause(String backend) {
        this.backend = backend;
    }

    /**
     * The backend's key: its base URL's scheme, host, port and path, without credentials or
     * query, so a password in the URL never reaches the ledger.
     */
    public static String keyOf(String baseUrl) {
        URI uri = URI.create(baseUrl.trim());
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
        String key = scheme + "://" + host + (uri.getPort() > 0 ? ":" + uri.getPort() : "") + path;
        return key.length() <= 255 ? key : key.substring(0, 255);
    }

    /** Extends the pause to {@code until} (never shortens one that reaches further). */
    public void pauseUntil(long until, long now, int status) {
        if (until > pausedUntil) {
            pausedUntil = until;
            pausedAt = now;
            httpStatus = status;
        }
    }

    public String getBackend() { return backend; }
    public long getPausedUntil() { return pausedUntil; }
    public long getPausedAt() { return pausedAt; }
    public Integer getHttpStatus() { return httpStatus; }
}
