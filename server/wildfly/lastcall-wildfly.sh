#!/usr/bin/env bash
# Provision and run a WildFly server (standalone-full.xml) for lastcall: the counterpart of
# server/payara/lastcall-payara.sh, with the same commands, environment and port convention.
# Used by ./lastcall (LASTCALL_SERVER=wildfly) and by src-it-wildfly (the integration tests).
#
#   lastcall-wildfly.sh install        unpack $LC_DIST_ZIP into $LC_RUNTIME/wildfly and install the
#                                      EclipseLink and PostgreSQL driver modules (once)
#   lastcall-wildfly.sh start          create + configure the server (once: configure.cli), point
#                                      java:/jdbc/lastcall at the ledger chosen by $LC_DB, start it,
#                                      and deploy $LC_HEALTH_WAR beside where lastcall.ear will go
#   lastcall-wildfly.sh deploy EAR     (re)deploy the EAR as deployment "lastcall.ear"
#   lastcall-wildfly.sh deployed       exit 0 if it is deployed
#   lastcall-wildfly.sh undeploy       undeploy it (if it is)
#   lastcall-wildfly.sh stop | status | pid
#   lastcall-wildfly.sh logs [N]       the last N lines of the server log, then follow it
#
# Environment (defaults in brackets):
#   LC_RUNTIME   runtime directory holding wildfly/ and servers/                  [required]
#   LC_DIST_ZIP  the WildFly distribution zip (org.wildfly:wildfly-dist)         [required for install]
#   LC_ECLIPSELINK_JAR  the EclipseLink jar added to WildFly's org.eclipse.persistence module [install]
#   LC_PG_JAR    the PostgreSQL JDBC driver jar, installed as module org.postgresql [install]
#   LC_DOMAIN    server name: its directory is $LC_RUNTIME/servers/<name>        [lastcall]
#   LC_PORTBASE  port base, at least 8000: http = base+80, management = base+1990 (the port
#                offset is base-8000, so 8000 gives WildFly's own 8080 and 9990)  [8000]
#   LC_DB        h2 | postgres: what java:/jdbc/lastcall points at               [h2]
#   LASTCALL_PG_HOST/_PORT/_DATABASE/_USER/_PASSWORD   [127.0.0.1/5432/lastcall/lastcall/lastcall]
#   LASTCALL_BROKER_PASSWORD     RabbitMQ password, a file of the server's private config source [guest]
#   LC_ENV_FILE  a file of VAR=value lines exported before anything else (the test server's settings)
#   LASTCALL_SUBMITTER_PASSWORD/_OPERATOR_PASSWORD/_VIEWER_PASSWORD  the users' passwords   [required]
#   LC_EXTRA_USERS  more users, "user:role:password ..." (the tests' second submitter)
#   LC_RESET_DATABASES  true: "start" first stops the server, empties both ledgers and removes a
#                deployment an aborted run left behind - what the integration tests do  [false]
#   LC_HEALTH_WAR lastcall-health.war (module wildfly-health): lastcall's checks in WildFly's
#                MicroProfile Health, which does not look inside an EAR; deployed by "start" [none]
#   LC_JAVA_OPTS JVM options of the server                   [-Xms256m -Xmx1g -XX:MaxMetaspaceSize=512m]
# Every other LASTCALL_* variable in the environment of "start" reaches the server, where
# MicroProfile Config reads it (LASTCALL_DISPATCH_PERMITS -> lastcall.dispatch.permits); the
# passwords above do not: they go into the server's private configuration.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../common.sh
. "$HERE/../common.sh"
((LC_PORTBASE >= 8000)) || { echo "[wildfly:$LC_DOMAIN] ERROR: LC_PORTBASE must be at least 8000 on WildFly" >&2; exit 1; }
OFFSET=$((LC_PORTBASE - 8000))
HTTP_PORT=$((8080 + OFFSET))
MGMT_PORT=$((9990 + OFFSET))
WILDFLY="$LC_RUNTIME/wildfly"
BASE="$LC_RUNTIME/servers/$LC_DOMAIN"
CONFIG="$BASE/configuration"
LOG="$BASE/log/server.log"
PIDFILE="$BASE/server.pid"
DEPLOYMENT=lastcall.ear

say() { printf '[wildfly:%s] %s\n' "$LC_DOMAIN" "$*"; }
die() { printf '[wildfly:%s] ERROR: %s\n' "$LC_DOMAIN" "$*" >&2; exit 1; }

# jboss-cli against this server's management port (local authentication: same user, same machine)
cli() { JAVA_OPTS="-Xmx256m" "$WILDFLY/bin/jboss-cli.sh" --connect --controller="127.0.0.1:$MGMT_PORT" "$@"; }
# jboss-cli with an embedded (offline) server on this server's directory
cli_offline() {
  JAVA_OPTS="-Xmx512m -Djboss.server.base.dir=$BASE" "$WILDFLY/bin/jboss-cli.sh" --file="$1" >"$BASE/cli.log" 2>&1 \
    || die "$(basename "$1") failed: $(grep -E 'WFLY|rror' "$BASE/cli.log" | tail -3)"
}

install() {
  if [ -x "$WILDFLY/bin/standalone.sh" ] && [ -f "$WILDFLY/.lastcall-modules" ]; then return 0; fi
  [ -f "${LC_DIST_ZIP:-}" ] || die "WildFly distribution zip not found (LC_DIST_ZIP='${LC_DIST_ZIP:-}')"
  [ -f "${LC_ECLIPSELINK_JAR:-}" ] || die "EclipseLink jar not found (LC_ECLIPSELINK_JAR='${LC_ECLIPSELINK_JAR:-}')"
  [ -f "${LC_PG_JAR:-}" ] || die "PostgreSQL driver jar not found (LC_PG_JAR='${LC_PG_JAR:-}')"
  say "unpacking $(basename "$LC_DIST_ZIP") into $LC_RUNTIME"
  mkdir -p "$LC_RUNTIME"
  rm -rf "$WILDFLY" "$LC_RUNTIME"/wildfly-*[0-9].Final
  unzip -q -o "$LC_DIST_ZIP" -d "$LC_RUNTIME"
  mv "$LC_RUNTIME"/wildfly-*[0-9].Final "$WILDFLY"
  [ -x "$WILDFLY/bin/standalone.sh" ] || die "no bin/standalone.sh after unpacking $LC_DIST_ZIP"
  install_modules
  touch "$WILDFLY/.lastcall-modules"
}

# EclipseLink joins WildFly's own org.eclipse.persistence module (which holds the integration
# jar); it must not be in the EAR: there its weaver rewrote its own classes and the log filled
# the disk. pgjdbc becomes module org.postgresql, the PostgreSQL data source's driver.
install_modules() {
  local el="$WILDFLY/modules/system/layers/base/org/eclipse/persistence/main"
  [ -f "$el/module.xml" ] || die "WildFly has no org.eclipse.persistence module at $el"
  cp "$LC_ECLIPSELINK_JAR" "$el/eclipselink.jar"
  sed -i 's|<resources>|<resources>\n        <resource-root path="eclipselink.jar"/>|' "$el/module.xml"
  sed -i 's|<dependencies>|<dependencies>\n        <module name="java.sql"/>\n        <module name="java.desktop"/>\n        <module name="java.xml"/>\n        <module name="java.rmi" optional="true"/>|' "$el/module.xml"
  local pg="$WILDFLY/modules/org/postgresql/main"
  mkdir -p "$pg"
  cp "$LC_PG_JAR" "$pg/postgresql.jar"
  cat > "$pg/module.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<module name="org.postgresql" xmlns="urn:jboss:module:1.9">
    <resources>
        <resource-root path="postgresql.jar"/>
    </resources>
    <dependencies>
        <module name="java.logging"/>
        <module name="java.management"/>
        <module name="java.naming"/>
        <module name="java.security.jgss"/>
        <module name="java.sql"/>
        <module name="java.xml"/>
        <module name="jakarta.transaction.api"/>
    </dependencies>
</module>
XML
}

pid() { cat "$PIDFILE" 2>/dev/null; }
running() { local p; p=$(pid) && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

create_server() {
  if [ -f "$CONFIG/standalone-full.xml" ]; then return 0; fi
  say "creating server $BASE (port base $LC_PORTBASE: http $HTTP_PORT, management $MGMT_PORT)"
  mkdir -p "$LC_RUNTIME/servers"
  rm -rf "$BASE"
  cp -r "$WILDFLY/standalone" "$BASE"
  rm -rf "$BASE/deployments"/* "$BASE/data" "$BASE/log" "$BASE/tmp"
  mkdir -p "$BASE/log" "$CONFIG/lastcall-secrets"
  chmod 700 "$CONFIG" "$CONFIG/lastcall-secrets"
  say "configuring: datasources java:/jdbc/lastcall-h2 and java:/jdbc/lastcall-pg, MicroProfile Health and OpenAPI, a capped log"
  cli_offline "$HERE/configure.cli"
}

# The users (application-users.properties holds md5(user:ApplicationRealm:password), the realm
# WildFly's default "other" security domain uses; application-roles.properties gives each its role),
# the broker password for MicroProfile Config, the PostgreSQL password and the ledger switch.
# Written while the server is stopped, so every start sees the current ones.
configure() {
  local users="$CONFIG/application-users.properties" roles="$CONFIG/application-roles.properties"
  local role var spec user group pw
  (umask 077
   printf '# lastcall users (server/wildfly/lastcall-wildfly.sh)\n' > "$users.new"
   printf '# lastcall roles (server/wildfly/lastcall-wildfly.sh)\n' > "$roles.new"
   add_user() { # user role password
     printf '%s=%s\n' "$1" "$(printf '%s' "$1:ApplicationRealm:$3" | md5sum | cut -c1-32)" >> "$users.new"
     printf '%s=%s\n' "$1" "$2" >> "$roles.new"
   }
   for role in submitter operator viewer; do
     var="LASTCALL_${role^^}_PASSWORD"
     [ -n "${!var:-}" ] || die "$var is not set"
     add_user "$role" "$role" "${!var}"
   done
   for spec in ${LC_EXTRA_USERS:-}; do
     IFS=: read -r user group pw <<<"$spec"
     add_user "$user" "$group" "$pw"
   done
   printf '%s' "${LASTCALL_BROKER_PASSWORD:-guest}" > "$CONFIG/lastcall-secrets/lastcall.broker.password")
  mv "$users.new" "$users"
  mv "$roles.new" "$roles"
  local jndi want script
  jndi=$(ledger_jndi)
  want=$(ledger_fingerprint)
  if [ "$(cat "$BASE/.lastcall-ledger" 2>/dev/null)" = "$want" ]; then return 0; fi
  say "pointing java:/jdbc/lastcall at $jndi"
  script=$(mktemp)
  chmod 600 "$script"
  cat > "$script" <<CLI
embed-server --server-config=standalone-full.xml --std-out=discard
/subsystem=naming/binding=java\:\/jdbc\/lastcall:write-attribute(name=lookup, value=$jndi)
/subsystem=datasources/xa-data-source=lastcall-pg:write-attribute(name=password, value="${LASTCALL_PG_PASSWORD:-lastcall}")
stop-embedded-server
CLI
  cli_offline "$script"
  rm -f "$script"
  echo "$want" > "$BASE/.lastcall-ledger"
}

# Empties the H2 ledger file and the PostgreSQL database's public schema (owned by the database owner).
reset_databases() {
  if running; then stop; fi
  say "emptying the ledgers (H2 file, PostgreSQL ${LASTCALL_PG_DATABASE:-lastcall}) and removing old deployments"
  rm -f "$BASE/data/"lastcall.*
  rm -rf "$BASE/data/content" "$BASE/deployments"/*
  # the deployment an aborted run left in the configuration
  sed -i '/<deployments>/,/<\/deployments>/d' "$CONFIG/standalone-full.xml"
  bash "$HERE/../empty-postgres.sh" \
    || say "warning: could not empty PostgreSQL ${LASTCALL_PG_DATABASE:-lastcall} (is it running?)"
}

start() {
  install
  create_server
  if [ "${LC_RESET_DATABASES:-false}" = true ]; then reset_databases; fi
  if running; then
    if [ "$(cat "$BASE/.lastcall-ledger" 2>/dev/null)" != "$(ledger_fingerprint)" ]; then
      say "the ledger or its password changed: restarting"
      stop
    else
      say "already running (http $HTTP_PORT, management $MGMT_PORT)"
      return 0
    fi
  fi
  configure
  say "starting (http $HTTP_PORT, management $MGMT_PORT)"
  local lines
  lines=$(wc -l < "$LOG" 2>/dev/null || echo 0)
  # secrets stay out of the server's environment (they are in its private configuration)
  # in a session of its own, with no stream of this script's caller held open (Maven waits for those)
  (cd "$BASE" && exec env -u LASTCALL_PG_PASSWORD -u LASTCALL_BROKER_PASSWORD -u LASTCALL_SUBMITTER_PASSWORD \
    -u LASTCALL_OPERATOR_PASSWORD -u LASTCALL_VIEWER_PASSWORD -u LASTCALL_ADMIN_PASSWORD -u LC_EXTRA_USERS \
    JBOSS_PIDFILE="$PIDFILE" LAUNCH_JBOSS_IN_BACKGROUND=1 \
    JAVA_OPTS="${LC_JAVA_OPTS:--Xms256m -Xmx1g -XX:MaxMetaspaceSize=512m} -Djava.net.preferIPv4Stack=true" \
    setsid "$WILDFLY/bin/standalone.sh" -c standalone-full.xml -Djboss.server.base.dir="$BASE" \
      -Djboss.socket.binding.port-offset="$OFFSET" -Djboss.bind.address="${LASTCALL_BIND:-127.0.0.1}" \
      -Djboss.bind.address.management=127.0.0.1) </dev/null >"$BASE/log/console.log" 2>&1 &
  local i fresh
  for ((i = 0; i < 120; i++)); do
    # what the server logged since this start (a variable, not a pipe: grep -q would cut tail
    # short, and pipefail would call that a failure)
    fresh=$(tail -n +"$((lines + 1))" "$LOG" 2>/dev/null || true)
    if grep -q 'WFLYSRV0025\|WFLYSRV0026' <<<"$fresh"; then
      if grep -q 'WFLYSRV0026' <<<"$fresh"; then
        say "started with errors: $(grep -E ' ERROR ' <<<"$fresh" | head -1 | cut -c1-300)"
      fi
      deploy_health
      return 0
    fi
    if ((i > 5)) && ! running; then
      die "the server exited while starting; see $LOG and $BASE/log/console.log"
    fi
    sleep 1
  done
  die "not started within 120 s; see $LOG"
}

# java:/jdbc/lastcall's target for $LC_DB, and a fingerprint of it with the PostgreSQL password
# (what the server was last configured with: a change needs a restart)
ledger_jndi() {
  case "$LC_DB" in
    h2) echo java:/jdbc/lastcall-h2 ;;
    *) echo java:/jdbc/lastcall-pg ;;
  esac
}
ledger_fingerprint() { printf '%s\n' "$(ledger_jndi)" "${LASTCALL_PG_PASSWORD:-lastcall}" | sha256sum | cut -c1-64; }

deploy() {
  local ear=${1:?deploy needs the EAR path}
  [ -f "$ear" ] || die "no EAR at $ear (build it with: mvn -DskipTests package)"
  running || die "the server is not running"
  say "deploying $(basename "$ear")"
  local lines out
  lines=$(wc -l < "$LOG" 2>/dev/null || echo 0)
  out=$(cli --command="deploy $ear --name=$DEPLOYMENT --force" 2>&1) \
    || die "deploy failed: $(deploy_cause "$lines" "$out")
  (whole log: $LOG, or ./lastcall logs)"
}

# lastcall's MicroProfile Health checks: a web application of their own, which reads them from
# lastcall's JMX bean (io.lastcall:type=Health) and is down while lastcall is not deployed.
deploy_health() {
  [ -n "${LC_HEALTH_WAR:-}" ] || return 0
  [ -f "$LC_HEALTH_WAR" ] || die "no health checks at $LC_HEALTH_WAR (build them with: mvn -DskipTests package)"
  local out
  out=$(cli --command="deploy $LC_HEALTH_WAR --name=lastcall-health.war --force" 2>&1) \
    || die "deploying $(basename "$LC_HEALTH_WAR") failed: $(deploy_cause 0 "$out")"
}

# Why a deployment failed, in one line: the CLI's answer, else the last error the server logged.
deploy_cause() {
  local cause
  cause=$(printf '%s\n' "$2" | grep -oE 'WFLY[A-Z]*[0-9]+:.*' | tail -1 | cut -c1-300)
  [ -n "$cause" ] || cause=$(tail -n +"$(($1 + 1))" "$LOG" 2>/dev/null | grep -E 'Caused by: ' | tail -1 | cut -c1-300)
  echo "${cause:-no cause in the server log}"
}

deployed() {
  running && cli --command="deployment-info --name=$DEPLOYMENT" 2>/dev/null | grep -q 'OK'
}

undeploy() {
  if deployed; then
    say "undeploying $DEPLOYMENT"
    cli --command="undeploy $DEPLOYMENT" >/dev/null || die "could not undeploy $DEPLOYMENT"
  fi
}

stop() {
  if running; then
    say "stopping"
    local p i
    p=$(pid)
    cli --command=":shutdown" >/dev/null 2>&1 || kill "$p" 2>/dev/null || true
    for ((i = 0; i < 60; i++)); do kill -0 "$p" 2>/dev/null || break; sleep 1; done
    if kill -0 "$p" 2>/dev/null; then
      say "still running after 60 s: killing $p"
      kill -9 "$p" 2>/dev/null || true
    fi
    rm -f "$PIDFILE"
  else
    say "not running"
  fi
}

status() {
  if running; then
    local db
    db=$(sed -n 's:.*<lookup name="java\:/jdbc/lastcall" lookup="\([^"]*\)".*:\1:p' "$CONFIG/standalone-full.xml")
    say "running (pid $(pid)): http http://127.0.0.1:$HTTP_PORT, management 127.0.0.1:$MGMT_PORT, ledger ${db:-?}"
  else
    say "not running"
    return 1
  fi
}

logs() {
  [ -f "$LOG" ] || die "no server log yet at $LOG"
  tail -n "${1:-100}" -F "$LOG"
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  deploy) shift; deploy "$@" ;;
  deployed) deployed ;;
  undeploy) undeploy ;;
  stop) stop ;;
  status) status ;;
  pid) pid ;;
  logs) shift; logs "$@" ;;
  *) echo "usage: $0 install|start|deploy EAR|deployed|undeploy|stop|status|pid|logs [lines]" >&2; exit 2 ;;
esac
