/**
 * The ledger's schema: Flyway migrations run at deploy ({@link io.lastcall.schema.LedgerSchema});
 * the SQL lives in {@code db/migration/common} and {@code db/migration/<vendor>}. A new column or
 * index is a new {@code V<n>__what.sql}, never an edit of an applied one.
 */
package io.lastcall.schema;
