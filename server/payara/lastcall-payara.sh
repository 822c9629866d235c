#!/usr/bin/env bash
# Provision and run a Payara Server 6 domain for lastcall. Used by ./lastcall (the run command)
# and by src-it (the integration tests), each with its own runtime directory and port base.
#
#   lastcall-payara.sh install        unpack $LC_DIST_ZIP into $LC_RUNTIME/payara6 (once)
#   lastcall-payara.sh start          create + configure the domain (once), start it, point
#                                     jdbc/lastcall at the pool chosen by $LC_DB
#   lastcall-payara.sh deploy EAR     (re)deploy the EAR as application "lastcall"
#   lastcall-payara.sh deployed       exit 0 if application "lastcall" is deployed
#   lastcall-payara.sh undeploy       undeploy it (if it is)
#   lastcall-payara.sh stop | status
#   lastcall-payara.sh logs [N]       the last N lines of the server log, then follow it
#
# Environment (defaults in brackets):
#   LC_RUNTIME   runtime directory holding payara6/ and domains/   [required]
#   LC_DIST_ZIP  the Payara distribution zip (from Maven)           [required for install]
#   LC_PG_JAR    the PostgreSQL JDBC driver jar, copied to the domain's lib/
#   LC_DOMAIN    domain name                                        [lastcall]
#   LC_PORTBASE  Payara port base: admin = base+48, http = base+80  [8000]
#   LC_DB        h2 | postgres: what jdbc/lastcall points at        [h2]
#   LASTCALL_PG_HOST/_PORT/_DATABASE/_USER/_PASSWORD                [127.0.0.1/5432/lastcall/lastcall/lastcall]
#   LASTCALL_BROKER_PASSWORD     RabbitMQ password, stored as a password alias    [guest]
#   LC_ENV_FILE  a file of VAR=value lines exported before anything else (the test domain's
#                settings); several files separated by ':', a later one overriding an earlier one
#   LASTCALL_SUBMITTER_PASSWORD/_OPERATOR_PASSWORD/_VIEWER_PASSWORD  the users' passwords   [required]
#   LC_EXTRA_USERS  more file-realm users, "user:group:password ..." (the tests' second submitter)
#   LASTCALL_ADMIN_PASSWORD  the password of the domain's admin user, set when the domain is
#                created, kept in $LC_RUNTIME/$LC_DOMAIN-admin.password   [generated]
#   LASTCALL_BIND   the address the HTTP listeners answer on                 [127.0.0.1]
#   LC_RESET_DATABASES  true: "start" first stops the domain and empties both ledgers (the H2
#                file and the PostgreSQL schema), and undeploys an application an aborted run
#                left behind - what the integration tests do  [false]
# Every other LASTCALL_* variable in the environment of "start" reaches the server, where
# MicroProfile Config reads it (LASTCALL_DISPATCH_PERMITS -> lastcall.dispatch.permits); the
# passwords above do not: they become password aliases or realm users.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=../common.sh
. "$HERE/../common.sh"
ADMIN_PORT=$((LC_PORTBASE + 48))
HTTP_PORT=$((LC_PORTBASE + 80))
PAYARA="$LC_RUNTIME/payara6"
DOMAINS="$LC_RUNTIME/domains"
ASADMIN="$PAYARA/bin/asadmin"

say() { printf '[payara:%s] %s\n' "$LC_DOMAIN" "$*"; }
die() { printf '[payara:%s] ERROR: %s\n' "$LC_DOMAIN" "$*" >&2; exit 1; }
# The domain's user "admin" gets a password when the domain is created (LASTCALL_ADMIN_PASSWORD,
# else generated); asadmin reads it from this file (mode 600). A domain created before that has
# none, and no file.
ADMIN_PWFILE="$LC_RUNTIME/$LC_DOMAIN-admin.password"
remote() {
  if [ -f "$ADMIN_PWFILE" ]; then
    AS_ADMIN_USER=admin AS_ADMIN_PASSWORDFILE="$ADMIN_PWFILE" \
      "$ASADMIN" --host 127.0.0.1 --port "$ADMIN_PORT" --interactive=false "$@"
  else
    "$ASADMIN" --host 127.0.0.1 --port "$ADMIN_PORT" --interactive=false "$@"
  fi
}
# The value of a dotted name of the running domain ("get"), or exit: a failed read must not pass for
# an empty value (select_database would read it as "another pool" and undeploy the application).
# Tried for up to a minute: right after a restart, under load, the admin listener may not answer yet.
remote_value() { # dotted-name
  local out tries=0
  until out=$(remote get "$1" 2>&1); do
    tries=$((tries + 1))
    [ "$tries" -lt 12 ] || die "could not read $1 from the domain: $out"
    sleep 5
  done
  awk -v key="$1=" 'index($0, key) == 1 { print substr($0, length(key) + 1) }' <<<"$out"
}
# A password file for one remote command: the admin's password and the command's own lines.
command_pwfile() { # file line
  { cat "$ADMIN_PWFILE" 2>/dev/null || true; printf '%s\n' "$2"; } > "$1"
}

install() {
  if [ -x "$ASADMIN" ]; then return 0; fi
  [ -f "${LC_DIST_ZIP:-}" ] || die "Payara distribution zip not found (LC_DIST_ZIP='${LC_DIST_ZIP:-}')"
  say "unpacking $(basename "$LC_DIST_ZIP") into $LC_RUNTIME"
  mkdir -p "$LC_RUNTIME"
  unzip -q -o "$LC_DIST_ZIP" -d "$LC_RUNTIME"
  [ -x "$ASADMIN" ] || die "no bin/asadmin after unpacking $LC_DIST_ZIP"
}

running() {
  "$ASADMIN" list-domains --domaindir "$DOMAINS" 2>/dev/null | grep -q "^$LC_DOMAIN running"
}

create_domain() {
  if [ -d "$DOMAINS/$LC_DOMAIN" ]; then return 0; fi
  say "creating domain (port base $LC_PORTBASE: admin $ADMIN_PORT, http $HTTP_PORT)"
  local admin_password=${LASTCALL_ADMIN_PASSWORD:-$(head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | cut -c1-20)}
  mkdir -p "$LC_RUNTIME"
  (umask 077 && printf 'AS_ADMIN_PASSWORD=%s\n' "$admin_password" > "$ADMIN_PWFILE")
  "$ASADMIN" --interactive=false --user admin --passwordfile "$ADMIN_PWFILE" create-domain \
    --portbase "$LC_PORTBASE" --domaindir "$DOMAINS" "$LC_DOMAIN" >/dev/null
  # the HTTP listeners' address goes into domain.xml before the first start: set on a running
  # Payara 6.2025.9, the change restarted http-listener-2 but left http-listener-1 dead
  # ("GrizzlyProxy is NULL") until the next restart
  sed -i -E "/<network-listener [^>]*name=\"http-listener-[12]\"/{/ address=/!s#<network-listener #<network-listener address=\"${LASTCALL_BIND:-127.0.0.1}\" #}" \
    "$DOMAINS/$LC_DOMAIN/config/domain.xml"
  touch "$DOMAINS/$LC_DOMAIN/.lastcall-unconfigured"
}

# Runs once, right after the first start of a new domain.
configure_domain() {
  local marker="$DOMAINS/$LC_DOMAIN/.lastcall-unconfigured"
  [ -f "$marker" ] || return 0
  # H2 with WRITE_DELAY=0: a commit is written at once, so a killed server loses no committed state
  say "configuring JDBC pools jdbc/lastcall-h2 and jdbc/lastcall-pg"
  local pg_host=${LASTCALL_PG_HOST:-127.0.0.1} pg_port=${LASTCALL_PG_PORT:-5432}
  local pg_db=${LASTCALL_PG_DATABASE:-lastcall} pg_user=${LASTCALL_PG_USER:-lastcall}
  local script="$DOMAINS/$LC_DOMAIN/lastcall-setup.asadmin"
  cat > "$script" <<ASADMIN
create-jdbc-connection-pool --datasourceclassname org.h2.jdbcx.JdbcDataSource --restype javax.sql.XADataSource --steadypoolsize 2 --maxpoolsize 32 --property URL=jdbc\\\\:h2\\\\:\${com.sun.aas.instanceRoot}/lib/databases/lastcall\\\\;WRITE_DELAY\\\\=0 lastcall-h2
create-jdbc-resource --connectionpoolid lastcall-h2 jdbc/lastcall-h2
create-jdbc-connection-pool --datasourceclassname org.postgresql.xa.PGXADataSource --restype javax.sql.XADataSource --steadypoolsize 0 --maxpoolsize 32 --isconnectvalidatereq true --validationmethod auto-commit --failconnection true --property serverName=$pg_host:portNumber=$pg_port:databaseName=$pg_db:user=$pg_user lastcall-pg
create-jdbc-resource --connectionpoolid lastcall-pg jdbc/lastcall-pg
create-jdbc-resource --connectionpoolid lastcall-h2 jdbc/lastcall
ASADMIN
  remote multimode --file "$script" >/dev/null || die "domain configuration failed (see $script)"
  rm -f "$marker"
}

# The database and broker passwords live in the domain's password alias store, never in
# domain.xml, the server's environment or a script: the PostgreSQL pool's password property is
# ${ALIAS=lastcall-pg-password}, and the alias lastcall.broker.password is what MicroProfile Config
# (Payara's password config source) gives the application and the adapter for that key.
# Created or updated on every start from LASTCALL_PG_PASSWORD and LASTCALL_BROKER_PASSWORD.
configure_secrets() {
  local existing pwfile
  existing=$(remote list-password-aliases 2>/dev/null || true)
  pwfile=$(mktemp)
  chmod 600 "$pwfile"
  set_alias() { # name value
    command_pwfile "$pwfile" "AS_ADMIN_ALIASPASSWORD=$2"
    if grep -qx "$1" <<<"$existing"; then
      remote --passwordfile "$pwfile" update-password-alias "$1" >/dev/null
    else
      remote --passwordfile "$pwfile" create-password-alias "$1" >/dev/null
    fi || { rm -f "$pwfile"; die "could not store the password alias $1"; }
  }
  set_alias lastcall-pg-password "${LASTCALL_PG_PASSWORD:-lastcall}"
  set_alias lastcall.broker.password "${LASTCALL_BROKER_PASSWORD:-guest}"
  rm -f "$pwfile"
  remote set 'resources.jdbc-connection-pool.lastcall-pg.property.password=${ALIAS=lastcall-pg-password}' >/dev/null \
    || die "could not point the PostgreSQL pool at its password alias"
}

# lastcall's users in the file realm, one per role (group = role, glassfish-web.xml), with the
# passwords of LASTCALL_SUBMITTER_PASSWORD, LASTCALL_OPERATOR_PASSWORD and LASTCALL_VIEWER_PASSWORD,
# plus LC_EXTRA_USERS ("user:group:password ..."). Created, or updated when a password changed.
configure_users() {
  local marker="$DOMAINS/$LC_DOMAIN/.lastcall-users" want existing pwfile role var spec user group pw
  want=$(printf '%s\n' "${LASTCALL_SUBMITTER_PASSWORD:-}" "${LASTCALL_OPERATOR_PASSWORD:-}" \
    "${LASTCALL_VIEWER_PASSWORD:-}" "${LC_EXTRA_USERS:-}" | sha256sum | cut -c1-64)
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then return 0; fi
  say "configuring users submitter, operator, viewer${LC_EXTRA_USERS:+ and extra users}"
  existing=$(remote list-file-users 2>/dev/null || true)
  pwfile=$(mktemp)
  chmod 600 "$pwfile"
  set_user() { # user group password
    command_pwfile "$pwfile" "AS_ADMIN_USERPASSWORD=$3"
    if grep -qx "$1" <<<"$existing"; then
      remote --passwordfile "$pwfile" update-file-user --groups "$2" "$1" >/dev/null
    else
      remote --passwordfile "$pwfile" create-file-user --groups "$2" "$1" >/dev/null
    fi || { rm -f "$pwfile"; die "could not set up user $1"; }
  }
  for role in submitter operator viewer; do
    var="LASTCALL_${role^^}_PASSWORD"
    [ -n "${!var:-}" ] || { rm -f "$pwfile"; die "$var is not set"; }
    set_user "$role" "$role" "${!var}"
  done
  for spec in ${LC_EXTRA_USERS:-}; do
    IFS=: read -r user group pw <<<"$spec"
    set_user "$user" "$group" "$pw"
  done
  rm -f "$pwfile"
  echo "$want" > "$marker"
}

# The HTTP listeners answer on LASTCALL_BIND only (default 127.0.0.1, this machine): put a gateway or a
# load balancer in front, or set LASTCALL_BIND=0.0.0.0 deliberately. A new domain has it in domain.xml
# from create_domain; an existing one whose address differs is changed and restarted (Payara does not
# apply the change to a running listener reliably).
bind_listeners() {
  local address=${LASTCALL_BIND:-127.0.0.1} listener key current changed=false
  for listener in http-listener-1 http-listener-2; do
    key="configs.config.server-config.network-config.network-listeners.network-listener.$listener.address"
    current=$(remote_value "$key") || exit 1
    if [ "$current" != "$address" ]; then
      say "binding $listener to $address (LASTCALL_BIND)"
      remote set "$key=$address" >/dev/null || die "could not bind $listener to $address"
      changed=true
    fi
  done
  if $changed; then
    say "restarting for the new listener address"
    stop
    start_domain
  fi
}

select_database() {
  local pool
  case "$LC_DB" in
    h2) pool=lastcall-h2 ;;
    postgres|postgresql|pg) pool=lastcall-pg ;;
    *) die "LC_DB must be h2 or postgres, not '$LC_DB'" ;;
  esac
  local current
  current=$(remote_value resources.jdbc-resource.jdbc/lastcall.pool-name) || exit 1
  if [ "$current" != "$pool" ]; then
    say "pointing jdbc/lastcall at $pool"
    remote set "resources.jdbc-resource.jdbc/lastcall.pool-name=$pool" >/dev/null
    if deployed; then
      # its schema migration must run on the other database: the next deploy does that (a
      # disable/enable cycle instead left Payara unable to inject the MDBs' session beans)
      say "undeploying the application; it is deployed again on $pool"
      remote undeploy lastcall >/dev/null || die "could not undeploy the application"
    fi
  fi
}

# Empties the H2 ledger file and the PostgreSQL database's public schema (owned by the database owner).
reset_databases() {
  if running; then stop; fi
  say "emptying the ledgers (H2 file, PostgreSQL ${LASTCALL_PG_DATABASE:-lastcall})"
  rm -f "$DOMAINS/$LC_DOMAIN/lib/databases/"lastcall.*
  bash "$HERE/../empty-postgres.sh" \
    || say "warning: could not empty PostgreSQL ${LASTCALL_PG_DATABASE:-lastcall} (is it running?)"
}

start() {
  install
  create_domain
  if [ "${LC_RESET_DATABASES:-false}" = true ]; then reset_databases; fi
  if [ -n "${LC_PG_JAR:-}" ] && [ ! -f "$DOMAINS/$LC_DOMAIN/lib/$(basename "$LC_PG_JAR")" ]; then
    cp "$LC_PG_JAR" "$DOMAINS/$LC_DOMAIN/lib/"
  fi
  if running; then
    say "already running (admin $ADMIN_PORT, http $HTTP_PORT)"
  else
    start_domain
  fi
  configure_domain
  configure_secrets
  configure_users
  bind_listeners
  select_database
  if [ "${LC_RESET_DATABASES:-false}" = true ] && deployed; then
    # an aborted test run left its application deployed; the next deployment must start clean
    say "undeploying the application an earlier run left behind"
    remote undeploy lastcall >/dev/null || die "could not undeploy the leftover application"
  fi
}

start_domain() {
  say "starting (admin $ADMIN_PORT, http $HTTP_PORT)"
  # secrets stay out of the server's environment (they are aliases, or only the realm needs them)
  env -u LASTCALL_PG_PASSWORD -u LASTCALL_BROKER_PASSWORD -u LASTCALL_SUBMITTER_PASSWORD \
    -u LASTCALL_OPERATOR_PASSWORD -u LASTCALL_VIEWER_PASSWORD -u LASTCALL_ADMIN_PASSWORD -u LC_EXTRA_USERS \
    "$ASADMIN" start-domain --domaindir "$DOMAINS" "$LC_DOMAIN" >/dev/null \
    || die "start-domain failed; see $DOMAINS/$LC_DOMAIN/logs/server.log"
}

deploy() {
  local ear=${1:?deploy needs the EAR path}
  [ -f "$ear" ] || die "no EAR at $ear (build it with: mvn -DskipTests package)"
  say "deploying $(basename "$ear")"
  local lines
  lines=$(wc -l < "$DOMAINS/$LC_DOMAIN/logs/server.log" 2>/dev/null || echo 0)
  remote deploy --force=true --enabled=true --name lastcall "$ear" >/dev/null 2>&1 \
    || die "deploy failed: $(deploy_cause "$lines")
  (whole log: $DOMAINS/$LC_DOMAIN/logs/server.log, or ./lastcall logs)"
}

# The innermost "Caused by" the server logged since line $1: why a deployment failed, in one line.
deploy_cause() {
  local cause
  cause=$(tail -n +"$((${1:-0} + 1))" "$DOMAINS/$LC_DOMAIN/logs/server.log" 2>/dev/null \
    | grep -E '^Caused by: ' | tail -1 | cut -c 12-300)
  echo "${cause:-no cause in the server log}"
}

logs() {
  local log="$DOMAINS/$LC_DOMAIN/logs/server.log"
  [ -f "$log" ] || die "no server log yet at $log"
  tail -n "${1:-100}" -F "$log"
}

deployed() {
  running && remote list-applications 2>/dev/null | grep -q '^lastcall '
}

undeploy() {
  if deployed; then
    say "undeploying lastcall"
    remote undeploy lastcall >/dev/null || die "could not undeploy the application"
  fi
}

stop() {
  if [ -x "$ASADMIN" ] && running; then
    say "stopping"
    "$ASADMIN" stop-domain --domaindir "$DOMAINS" "$LC_DOMAIN" >/dev/null || true
  else
    say "not running (asadmin list-domains)"
  fi
  # a domain whose admin listener does not answer is "not running" to asadmin; its process may live on
  local pidfile="$DOMAINS/$LC_DOMAIN/config/pid" pid
  pid=$(cat "$pidfile" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && grep -qa "$DOMAINS/$LC_DOMAIN" "/proc/$pid/cmdline" 2>/dev/null; then
    say "process $pid of the domain still runs: killing it"
    kill -9 "$pid" || true
  fi
}

status() {
  if [ -x "$ASADMIN" ] && running; then
    say "running: admin http://127.0.0.1:$ADMIN_PORT, http http://127.0.0.1:$HTTP_PORT, database $(remote get resources.jdbc-resource.jdbc/lastcall.pool-name 2>/dev/null | sed -n 's/.*pool-name=//p')"
  else
    say "not running"
    return 1
  fi
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  deploy) shift; deploy "$@" ;;
  deployed) deployed ;;
  undeploy) undeploy ;;
  stop) stop ;;
  status) status ;;
  logs) shift; logs "$@" ;;
  *) echo "usage: $0 install|start|deploy EAR|deployed|undeploy|stop|status|logs [lines]" >&2; exit 2 ;;
esac
