#!/usr/bin/env bash
# Empties the PostgreSQL ledger's public schema (owned by the database owner): what the
# integration tests do before a run (LC_RESET_DATABASES=true of server/payara and server/wildfly).
# LASTCALL_PG_HOST/_PORT/_DATABASE/_USER/_PASSWORD [127.0.0.1/5432/lastcall/lastcall/lastcall].
# Exits non-zero when psql is missing or the database does not answer.
set -euo pipefail
command -v psql >/dev/null || exit 1
PGPASSWORD=${LASTCALL_PG_PASSWORD:-lastcall} psql -q -h "${LASTCALL_PG_HOST:-127.0.0.1}" \
  -p "${LASTCALL_PG_PORT:-5432}" -U "${LASTCALL_PG_USER:-lastcall}" -d "${LASTCALL_PG_DATABASE:-lastcall}" \
  -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;' >/dev/null 2>&1
