package io.lastcall.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The roles that may call a resource method, enforced by {@link RoleCheck}. lastcall's own
 * annotation rather than {@code jakarta.annotation.security.RolesAllowed}: with that one in the
 * web module, Payara 6 answered 401 for every unauthenticated URL after a redeploy.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Allowed {
    String[] value();
}
