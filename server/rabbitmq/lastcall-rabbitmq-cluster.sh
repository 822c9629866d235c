#!/usr/bin/env bash
# A RabbitMQ cluster of three nodes on this machine, for quorum queues
# (lastcall.broker.queue-type=quorum) and broker failover (lastcall.broker.addresses). It runs
# next to the broker on 5672 and shares nothing with it: own node names (lastcall-q1@localhost
# ...), own ports, own data directory and Erlang cookie. Uses Debian's rabbitmq-server package.
#
#   lastcall-rabbitmq-cluster.sh start          start the nodes, node 2.. join node 1 (once)
#   lastcall-rabbitmq-cluster.sh stop           stop every node (data kept)
#   lastcall-rabbitmq-cluster.sh reset          stop, then delete the data directory
#   lastcall-rabbitmq-cluster.sh status         the cluster as node 1 (or the first running node) sees it
#   lastcall-rabbitmq-cluster.sh stop-node N    stop node N (the others keep the cluster)
#   lastcall-rabbitmq-cluster.sh start-node N   start node N again; it rejoins by itself
#   lastcall-rabbitmq-cluster.sh leader QUEUE   the node that leads a quorum queue (its number)
#   lastcall-rabbitmq-cluster.sh addresses      the value for LASTCALL_BROKER_ADDRESSES
#
# Settings (environment):
#   LC_CLUSTER_DIR     data, logs and cookie      [<repo>/.lastcall/rabbitmq-cluster]
#   LC_CLUSTER_NODES   number of nodes            [3]
#   LC_CLUSTER_PORT    AMQP port of node 1; node N listens on port + N - 1, its Erlang
#                      distribution on that + 20000   [5681]
#   LC_RABBITMQ_BIN    RabbitMQ's own scripts     [/usr/lib/rabbitmq/bin]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${LC_CLUSTER_DIR:-$HERE/../../.lastcall/rabbitmq-cluster}
# absolute: the nodes start from their own directories
mkdir -p "$DIR" && DIR=$(cd "$DIR" && pwd)
NODES=${LC_CLUSTER_NODES:-3}
PORT=${LC_CLUSTER_PORT:-5681}
BIN=${LC_RABBITMQ_BIN:-/usr/lib/rabbitmq/bin}

say() { printf '[rabbitmq-cluster] %s\n' "$*"; }
die() { printf '[rabbitmq-cluster] ERROR: %s\n' "$*" >&2; exit 1; }

[ -x "$BIN/rabbitmq-server" ] || die "no RabbitMQ at $BIN (install Debian's rabbitmq-server, or set LC_RABBITMQ_BIN)"

node() { echo "lastcall-q$1@localhost"; }
port() { echo $((PORT + $1 - 1)); }
nodes() { seq 1 "$NODES"; }

# rabbitmqctl against node $1, with this cluster's cookie (in $DIR, the nodes' HOME)
ctl() {
  local n=$1
  shift
  HOME="$DIR" "$BIN/rabbitmqctl" -q -n "$(node "$n")" "$@"
}

running() { ctl "$1" ping >/dev/null 2>&1; }

cookie() {
  mkdir -p "$DIR"
  if [ ! -f "$DIR/.erlang.cookie" ]; then
    head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$DIR/.erlang.cookie"
    chmod 400 "$DIR/.erlang.cookie"
  fi
}

# Starts node $1 detached with its own configuration (nothing of /etc/rabbitmq applies).
launch() {
  local n=$1 home="$DIR/q$1"
  if running "$n"; then return 0; fi
  if epmd -names 2>/dev/null | grep -q "^name lastcall-q$n at"; then
    die "a node named $(node "$n") runs but does not answer with the cookie of $DIR (another LC_CLUSTER_DIR?); stop it first"
  fi
  mkdir -p "$home/log"
  : > "$home/rabbitmq-env.conf"
  echo '[].' > "$home/enabled_plugins"
  cat > "$home/rabbitmq.conf" <<EOF
listeners.tcp.local = 127.0.0.1:$(port "$n")
# a node that lost the majority pauses instead of serving a split brain
cluster_partition_handling = pause_minority
EOF
  say "starting $(node "$n") (AMQP 127.0.0.1:$(port "$n"))"
  # from its own directory: a node that crashes writes its dumps there, not where this was called
  cd "$home"
  env HOME="$DIR" ERL_CRASH_DUMP="$home/erl_crash.dump" RABBITMQ_CONF_ENV_FILE="$home/rabbitmq-env.conf" RABBITMQ_CONFIG_FILE="$home/rabbitmq.conf" \
    RABBITMQ_NODENAME="$(node "$n")" RABBITMQ_DIST_PORT=$(($(port "$n") + 20000)) \
    RABBITMQ_MNESIA_BASE="$home/mnesia" RABBITMQ_LOG_BASE="$home/log" \
    RABBITMQ_ENABLED_PLUGINS_FILE="$home/enabled_plugins" RABBITMQ_PID_FILE="$home/pid" \
    ERL_EPMD_ADDRESS=127.0.0.1 RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" \
    setsid "$BIN/rabbitmq-server" -detached </dev/null >"$home/log/startup.log" 2>&1
  cd - >/dev/null
}

await() {
  local n=$1
  ctl "$n" wait --timeout 120 "$DIR/q$n/pid" >/dev/null 2>&1 \
    || die "$(node "$n") did not start; see $DIR/q$n/log"
  ctl "$n" await_startup --timeout 120 >/dev/null || die "$(node "$n") did not finish booting; see $DIR/q$n/log"
}

start() {
  cookie
  # all first, then wait: a restarted cluster's nodes wait for each other while they boot
  for n in $(nodes); do launch "$n"; done
  for n in $(nodes); do await "$n"; done
  for n in $(nodes); do
    [ "$n" = 1 ] && continue
    if ! ctl "$n" cluster_status --formatter json | grep -q "\"$(node 1)\""; then
      say "$(node "$n") joins $(node 1)"
      ctl "$n" stop_app >/dev/null
      ctl "$n" join_cluster "$(node 1)" >/dev/null
      ctl "$n" start_app >/dev/null
    fi
  done
  say "up: $(addresses)"
}

stop_node() {
  local n=${1:?stop-node needs a node number}
  if running "$n"; then
    say "stopping $(node "$n")"
    ctl "$n" stop "$DIR/q$n/pid" >/dev/null
  fi
}

start_node() {
  local n=${1:?start-node needs a node number}
  cookie
  launch "$n"
  await "$n"
}

stop() {
  for n in $(nodes); do stop_node "$n"; done
}

first_running() {
  for n in $(nodes); do
    if running "$n"; then echo "$n"; return 0; fi
  done
  die "no node of the cluster is running"
}

status() {
  ctl "$(first_running)" cluster_status
}

# The number of the node leading quorum queue $1
leader() {
  local queue=${1:?leader needs a queue name} name
  name=$(ctl "$(first_running)" list_queues name leader --no-table-headers | awk -v q="$queue" '$1 == q { print $2 }')
  [ -n "$name" ] || die "no quorum queue $queue (or no leader)"
  echo "$name" | sed -n 's/^lastcall-q\([0-9]*\)@.*/\1/p'
}

addresses() {
  local out=""
  for n in $(nodes); do out="$out${out:+,}127.0.0.1:$(port "$n")"; done
  echo "$out"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  reset) stop; rm -rf "$DIR"; say "deleted $DIR" ;;
  status) status ;;
  stop-node) stop_node "${2:-}" ;;
  start-node) start_node "${2:-}" ;;
  leader) leader "${2:-}" ;;
  addresses) addresses ;;
  *) die "usage: $0 start|stop|reset|status|stop-node N|start-node N|leader QUEUE|addresses" ;;
esac
