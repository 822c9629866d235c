package io.lastcall.it;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Debian's nginx as the gateway between lastcall and the dispatch spy, configured the way
 * production gateways are (it-domain.env points workloads at it):
 * <ul>
 * <li>14893 (it-gateway): keepalive_timeout 1 s and keepalive_requests 5 toward lastcall,
 * proxy_read_timeout 2 s (a slower answer is a real 504);</li>
 * <li>14894 (it-gateway-close): keepalive_timeout 0, so every answer closes its connection;</li>
 * <li>14895 (it-gateway-down): an upstream with nothing listening (real 502s);</li>
 * <li>14896 (it-gateway-limit): limit_req at 20 requests a second, burst 5, answering 429;</li>
 * <li>14897: as 14893 with proxy_read_timeout 300 s, a transparent gateway: the WildFly run's
 * default model backend (it-through-gateway.env), so every dispatch scenario runs through it there;
 * its {@link #arrivalsLog()} has the instant each request's first bytes reached nginx;</li>
 * <li>14898 (it-paced): while {@link #paced()} exists, every request is answered {@code 429} with
 * {@code Retry-After: 5}, as a provider's rate limiter does; otherwise passed to the spy. Its own
 * access log ({@link #pacedLog()}) has each request's arrival (ms) and status.</li>
 * <li>14888 (it-limited): a provider's rate limit of 60 requests a minute, a bucket of 60 that
 * refills one a second (limit_req 1r/s, burst 59), answering 429 beyond it; its access log
 * ({@link #limitedLog()}) has each request's arrival (ms) and status.</li>
 * </ul>
 * Started with the dispatch spy, once per test JVM, stopped when it exits.
 */
public final class Gateway {

    private static Process nginx;
    private static Path dir;

    private Gateway() {
    }

    public static synchronized void start() {
        if (nginx != null && nginx.isAlive()) {
            return;
        }
        dir = Path.of(System.getProperty("java.io.tmpdir"), "lastcall-it-nginx-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(dir);
            Path conf = dir.resolve("nginx.conf");
            Files.writeString(conf, config(dir));
            // ahead of everything else on the machine when it may be: it stands for a backend on
            // another host, which TransportIT's CPU burners (in this JVM) do not slow down
            List<String> command = new ArrayList<>("root".equals(System.getProperty("user.name"))
                    ? List.of("nice", "-n", "-10") : List.of());
            command.addAll(List.of(nginxBinary(), "-p", dir.toString(), "-c", conf.toString()));
            nginx = new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> nginx.destroy()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start nginx (./lastcall services --test-tools installs it): " + e, e);
        }
        Await.until("nginx listening on 14893", Duration.ofSeconds(20), () -> {
            try (Socket s = new Socket("127.0.0.1", 14893)) {
                return true;
            } catch (IOException notYet) {
                if (!nginx.isAlive()) {
                    throw new IllegalStateException("nginx exited: " + read(dir.resolve("error.log")));
                }
                return false;
            }
        }, up -> up);
    }

    /** 14897's access log: "end-epoch-seconds.millis request-time-seconds job-id deadline" per request. */
    public static Path arrivalsLog() {
        return dir.resolve("arrivals.log");
    }

    /** The file whose existence makes 14898 answer every request with 429 and Retry-After: 5. */
    public static Path paced() {
        return dir.resolve("paced");
    }

    /** 14898's access log: one line per request, "arrival-epoch-seconds.millis status job-id". */
    public static Path pacedLog() {
        return dir.resolve("paced.log");
    }

    /** 14888's access log: one line per request, "arrival-epoch-seconds.millis status job-id". */
    public static Path limitedLog() {
        return dir.resolve("limited.log");
    }

    private static String nginxBinary() {
        return List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx").stream().filter(p -> Files.isExecutable(Path.of(p)))
                .findFirst().orElse("nginx");
    }

    private static String config(Path dir) {
        String root = "root".equals(System.getProperty("user.name")) ? "user root;\n" : "";
        return root + "daemon off;\nworker_processes 1;\npid " + dir + "/nginx.pid;\nerror_log " + dir
                + "/error.log warn;\nevents { worker_connections 2048; }\nhttp {\n"
                + "  access_log " + dir + "/access.log;\n  client_max_body_size 8m;\n"
                + "  client_body_temp_path " + dir + "/body;\n  proxy_temp_path " + dir + "/proxy;\n"
                + "  fastcgi_temp_path " + dir + "/fastcgi;\n  uwsgi_temp_path " + dir + "/uwsgi;\n"
                + "  scgi_temp_path " + dir + "/scgi;\n"
                + "  upstream spy { server 127.0.0.1:14890; keepalive 32; }\n"
                + "  upstream nowhere { server 127.0.0.1:14899; }\n"
                + "  limit_req_zone $server_port zone=model:1m rate=20r/s;\n  limit_req_status 429;\n"
                + "  proxy_http_version 1.1;\n  proxy_set_header Connection \"\";\n  proxy_read_timeout 2s;\n"
                + "  server { listen 127.0.0.1:14893; keepalive_timeout 1s; keepalive_requests 5;\n"
                + "    location / { proxy_pass http://spy; } }\n"
                + "  server { listen 127.0.0.1:14894; keepalive_timeout 0;\n"
                + "    location / { proxy_pass http://spy; } }\n"
                + "  server { listen 127.0.0.1:14895; location / { proxy_pass http://nowhere; } }\n"
                + "  log_format arrivals '$msec $request_time $http_x_lastcall_job_id $http_x_lastcall_deadline';\n"
                + "  server { listen 127.0.0.1:14897; keepalive_timeout 1s; keepalive_requests 5;\n"
                + "    access_log " + dir + "/arrivals.log arrivals;\n"
                + "    proxy_read_timeout 300s; location / { proxy_pass http://spy; } }\n"
                + "  log_format paced '$msec $status $http_x_lastcall_job_id';\n"
                + "  server { listen 127.0.0.1:14898; keepalive_timeout 1s; access_log " + dir + "/paced.log paced;\n"
                + "    error_page 429 = @paced;\n"
                + "    location / { if (-f " + dir + "/paced) { return 429; } proxy_pass http://spy; }\n"
                + "    location @paced { add_header Retry-After 5 always; default_type application/json;\n"
                + "      return 429 '{\"error\":{\"message\":\"rate limited\",\"type\":\"rate_limit_exceeded\"}}'; } }\n"
                + "  limit_req_zone $server_port zone=provider:1m rate=60r/m;\n"
                + "  server { listen 127.0.0.1:14888; keepalive_timeout 1s; access_log " + dir + "/limited.log paced;\n"
                + "    location / { limit_req zone=provider burst=59 nodelay; proxy_pass http://spy; } }\n"
                + "  server { listen 127.0.0.1:14896; keepalive_timeout 1s;\n"
                + "    location / { limit_req zone=model burst=5 nodelay; proxy_pass http://spy; } }\n"
                + "}\n";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(no " + file + ")";
        }
    }
}
