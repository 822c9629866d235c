/**
 * The ledger database itself: its schema, by Flyway migrations run at deploy
 * ({@link io.lastcall.schema.LedgerSchema}; the SQL lives in {@code db/migration/common} and
 * {@code db/migration/<vendor>}, and a new column or index is a new {@code V<n>__what.sql}, never an
 * edit of an applied one), its clock ({@link io.lastcall.schema.DatabaseTime}, the one every server
 * sees alike), its reachability ({@link io.lastcall.schema.DatabaseProbe}) and the one order in
 * which a transaction locks several job rows ({@link io.lastcall.schema.JobLocks}).
 */
package io.lastcall.schema;
