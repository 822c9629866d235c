package io.lastcall.web;

/** lastcall's roles (docs/operating.md, "Users and roles"); an operator can do everything a viewer can. */
final class Roles {

    static final String SUBMITTER = "submitter";
    static final String OPERATOR = "operator";
    static final String VIEWER = "viewer";

    /**
     * The OpenAPI security scheme (HTTP Basic) whose scopes on a resource method are the roles
     * that may call it: {@link RoleCheck} enforces them, and the OpenAPI document shows them.
     */
    static final String SCHEME = "basic";

    static final String UNAUTHENTICATED = "UNAUTHENTICATED: no credentials, or a wrong user or password";
    static final String FORBIDDEN = "FORBIDDEN: the user has none of the roles this operation's security scopes name";

    private Roles() {
    }
}
