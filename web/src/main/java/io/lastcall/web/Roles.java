package io.lastcall.web;

/** lastcall's roles (README, "Users and roles"); an operator can do everything a viewer can. */
final class Roles {

    static final String SUBMITTER = "submitter";
    static final String OPERATOR = "operator";
    static final String VIEWER = "viewer";

    private Roles() {
    }
}
