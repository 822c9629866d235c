package io.lastcall.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.TreeSet;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code GET /api/config}: every lastcall setting some config source provides ({@code lastcall.*}
 * properties and {@code LASTCALL_*} environment variables), with its effective value and the
 * source it came from; passwords, keys and secrets are masked. Settings no source provides take
 * the defaults docs/configuration.md lists.
 */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("config")
@Produces(MediaType.APPLICATION_JSON)
public class ConfigResource {

    /** One setting as MicroProfile Config resolves it. */
    public record Setting(String name, String value, String source) {
    }

    static final String MASK = "****";

    @Inject
    Config config;

    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    public List<Setting> settings() {
        TreeSet<String> names = StreamSupport.stream(config.getPropertyNames().spliterator(), false)
                .filter(n -> n.startsWith("lastcall.") || n.startsWith("LASTCALL_"))
                .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        return names.stream().map(config::getConfigValue).map(ConfigResource::view).toList();
    }

    private static Setting view(ConfigValue v) {
        return new Setting(v.getName(), secret(v.getName()) && v.getValue() != null ? MASK : masked(v.getValue()),
                v.getSourceName());
    }

    private static final Pattern URL_PASSWORD = Pattern.compile("(://[^/@:\\s]*):[^/@\\s]*@");
    private static final Pattern SECRET_PARAMETER = Pattern.compile(
            "(?i)((?:password|passwd|pwd|secret|token|api[-_]?key)=)[^&;\\s]*");

    /** A value with the credentials inside it masked: a URL's password, a password= parameter. */
    static String masked(String value) {
        if (value == null) {
            return null;
        }
        String m = URL_PASSWORD.matcher(value).replaceAll("$1:" + MASK + "@");
        return SECRET_PARAMETER.matcher(m).replaceAll("$1" + MASK);
    }

    // one spelling for LASTCALL_MODEL_API_KEY, lastcall.model.api-key and lastcall.model.api.key
    // (SmallRye, on WildFly, lists the last form for the environment variable)
    static boolean secret(String name) {
        String n = name.toLowerCase(Locale.ROOT).replace('_', '-').replace('.', '-');
        return n.contains("password") || n.contains("api-key") || n.contains("secret") || n.contains("token");
    }
}
