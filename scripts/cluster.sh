#!/usr/bin/env bash
# Three MariaDB Galera nodes, two service instances, Redis and HAProxy on one machine, then faults under load
# (bench/cluster.ts). Everything runs from Debian's packages under a temporary directory, on ports of its own; the
# machine's own MariaDB and Redis are not touched. See docs/galera.md.
#
# Usage: scripts/cluster.sh [--faults a,b] [--duration S] [--keep] [--direct] | --nodes-only
#   --faults    a subset of: instance-kill,node-term,node-kill,isolate,rolling,conflict,migrate (default: all)
#   --duration  seconds of load per fault (default 20)
#   --keep      leave the cluster up afterwards (stop it with: scripts/cluster.sh ctl DIR down)
#   --direct    each instance connects to its node directly instead of through its Galera-aware HAProxy listener
#   --nodes-only  start the Galera nodes alone (no Redis, HAProxy, instances or faults), print each node's URL and
#               leave them up: for the benches in the database alone (docs/search.md, "The two designs at 100,000 snippets")
#   CLUSTER_PORT_BASE (env, default 24000): the ports used are BASE+10 .. BASE+99
#   CLUSTER_NODES (env, default 3): how many nodes to start (2 or 3)
#   CLUSTER_BUFFER_POOL (env, default 64M): each node's innodb_buffer_pool_size
# Internal: scripts/cluster.sh ctl DIR node-start|node-stop|node-kill N, instance-start NAME [DB], instance-stop|
#   instance-kill NAME, sql N "STATEMENT", haproxy "RUNTIME API COMMAND", down
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BASE=${CLUSTER_PORT_BASE:-24000}
GALERA=/usr/lib/galera/libgalera_smm.so
SECRET='cluster-secret-key-cluster-secret-key-0'
DB=snippets

node_port() { echo $((BASE + $1 * 10)); }
gmcast_port() { echo $((BASE + $1 * 10 + 1)); }
ist_port() { echo $((BASE + $1 * 10 + 2)); }
sst_port() { echo $((BASE + $1 * 10 + 3)); }
check_port() { echo $((BASE + $1 * 10 + 4)); }
REDIS_PORT=$((BASE + 50))
HTTP_PORT=$((BASE + 60))
STATS_PORT=$((BASE + 61))
# Instance NAME: its HTTP port, its home node, its Galera-aware database listener on HAProxy.
instance_port() { case $1 in a) echo $((BASE + 91)) ;; b) echo $((BASE + 92)) ;; c) echo $((BASE + 93)) ;; d) echo $((BASE + 94)) ;; esac; }
instance_node() { case $1 in a | c) echo 1 ;; b | d) echo 2 ;; esac; }
db_proxy_port() { echo $((BASE + 70 + $1)); } # by node: the listener whose primary server is that node

log() { printf '%s cluster: %s\n' "$(date -u +%T)" "$*" >&2; }

# A process of ours in a session (and process group) of its own, so that kill -- -PID takes it and its children.
spawn() {
  local name=$1
  shift
  # In a subshell: not a job of this shell, which would otherwise report every kill -9 on its terminal.
  (
    setsid "$@" >>"$DIR/logs/$name.log" 2>&1 </dev/null &
    echo $! >"$DIR/pids/$name.pid"
  )
}

pid_of() { cat "$DIR/pids/$1.pid" 2>/dev/null || true; }
alive() { local p; p=$(pid_of "$1"); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

signal_group() { # NAME SIGNAL
  local p
  p=$(pid_of "$1")
  [ -n "$p" ] && kill "-$2" -- "-$p" 2>/dev/null || true
}

wait_gone() { # NAME SECONDS
  for _ in $(seq 1 $(($2 * 10))); do alive "$1" || return 0; sleep 0.1; done
  return 1
}

sql() { # NODE STATEMENT
  mariadb --protocol=socket -S "$DIR/node$1/mysqld.sock" -uroot -N -B -e "$2"
}

write_node_cnf() {
  local n=$1 d=$DIR/node$1
  mkdir -p "$d/data"
  chown -R mysql:mysql "$d"
  cat >"$d/my.cnf" <<CNF
[mysqld]
user=mysql
datadir=$d/data
socket=$d/mysqld.sock
pid-file=$d/mysqld.pid
log-error=$d/error.log
port=$(node_port "$n")
bind-address=127.0.0.1
skip-name-resolve
performance_schema=OFF
innodb_buffer_pool_size=${CLUSTER_BUFFER_POOL:-64M}
innodb_log_file_size=32M
character-set-server=utf8mb4
collation-server=utf8mb4_bin
# What Galera needs: row-based replication, InnoDB, interleaved auto-increment locks.
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
# A commit is durable on the other nodes once certified: a crashed node is refilled by IST/SST, so it need not sync its log.
innodb_flush_log_at_trx_commit=2
wsrep_on=ON
wsrep_provider=$GALERA
wsrep_cluster_name=snippets
wsrep_cluster_address=gcomm://127.0.0.1:$(gmcast_port 1),127.0.0.1:$(gmcast_port 2),127.0.0.1:$(gmcast_port 3)
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(gmcast_port "$n")
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$(gmcast_port "$n");ist.recv_addr=127.0.0.1:$(ist_port "$n");gcache.size=256M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(sst_port "$n")
CNF
}

node_synced() { [ "$(sql "$1" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='WSREP_LOCAL_STATE_COMMENT'" 2>/dev/null)" = Synced ]; }

# A node killed mid-write leaves seqno -1 in grastate.dat: Galera would then ask for a whole state transfer (SST).
# Debian's systemd unit first recovers the last committed position from InnoDB (galera_recovery, that is mariadbd
# --wsrep-recover) and starts from it, so the node catches up by IST from a donor's cache; so does this.
start_position() { # N
  local d=$DIR/node$1 pos
  grep -q '^seqno: *-1' "$d/data/grastate.dat" 2>/dev/null || return 0
  mariadbd --defaults-file="$d/my.cnf" --wsrep-recover --log-error="$d/recover.log" >/dev/null 2>&1 || true
  pos=$(sed -n 's/.*WSREP: Recovered position: //p' "$d/recover.log" | tail -1)
  [ -n "$pos" ] && echo "--wsrep-start-position=$pos"
}

node_start() { # N [--wsrep-new-cluster]
  local n=$1 pos
  shift
  pos=$(start_position "$n")
  [ -n "$pos" ] && log "node$n: ${pos#--}"
  spawn "node$n" mariadbd --defaults-file="$DIR/node$n/my.cnf" ${pos:+"$pos"} "$@"
  for _ in $(seq 1 900); do
    node_synced "$n" && return 0
    alive "node$n" || { log "node$n exited while starting:"; tail -20 "$DIR/node$n/error.log" >&2; return 1; }
    sleep 0.2
  done
  log "node$n not Synced within 180 s"
  tail -20 "$DIR/node$n/error.log" >&2
  return 1
}

node_stop() {
  signal_group "node$1" TERM
  wait_gone "node$1" 120 || { log "node$1 did not stop within 120 s: kill -9"; signal_group "node$1" KILL; }
}

node_kill() {
  signal_group "node$1" KILL
  wait_gone "node$1" 30
}

database_url() { # INSTANCE [DB]
  local n port
  n=$(instance_node "$1")
  if [ "$(cat "$DIR/mode")" = direct ]; then port=$(node_port "$n"); else port=$(db_proxy_port "$n"); fi
  echo "mysql://snippets:snippets@127.0.0.1:$port/${2:-$DB}"
}

instance_env() { # INSTANCE [DB]
  echo "DATABASE_URL=$(database_url "$@")" "REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0" "SECRET_KEY=$SECRET" \
    "PORT=$(instance_port "$1")" HOST=127.0.0.1 "LOG_LEVEL=$(log_level "$1")" HIGHLIGHT_WORKERS=1 PASSWORD_ITERATIONS=1000 \
    THROTTLE_ANON=1000000/second THROTTLE_USER=1000000/second
}

# The access log of the loaded instances would cost CPU the load needs; c and d log their migrations (info).
log_level() { case $1 in a | b) echo warn ;; *) echo info ;; esac; }

instance_start() { # INSTANCE [DB]
  local name=$1 url
  # shellcheck disable=SC2046 # the words of instance_env are NAME=value pairs without spaces
  spawn "instance-$name" env $(instance_env "$@") node "$ROOT/dist/server/main.js"
  url="http://127.0.0.1:$(instance_port "$name")/readyz"
  for _ in $(seq 1 600); do
    curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null && return 0
    alive "instance-$name" || { log "instance $name exited while starting:"; tail -5 "$DIR/logs/instance-$name.log" >&2; return 1; }
    sleep 0.2
  done
  log "instance $name not ready within 120 s"
  return 1
}

instance_stop() {
  signal_group "instance-$1" TERM
  wait_gone "instance-$1" 40 || signal_group "instance-$1" KILL
}

instance_kill() {
  signal_group "instance-$1" KILL
  wait_gone "instance-$1" 10
}

# HAProxy's runtime API, e.g. "set server instances/a state drain": no new requests, those under way finish.
haproxy_cmd() { echo "$1" | socat stdio "unix-connect:$DIR/haproxy.sock"; }

write_haproxy_cfg() {
  local n b
  cat >"$DIR/haproxy.cfg" <<CFG
# Generated by scripts/cluster.sh; deploy/haproxy.cfg is the same topology for docker-compose.
global
  maxconn 4096
  stats socket $DIR/haproxy.sock mode 600 level admin

defaults
  timeout connect 2s
  timeout client 60s
  timeout server 60s

frontend http
  bind 127.0.0.1:$HTTP_PORT
  mode http
  default_backend instances

backend instances
  mode http
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  # A connection refused by a dead instance is tried again on the other one (never a request that reached one).
  retry-on conn-failure
  retries 2
  option redispatch 1
  default-server inter 1s fall 2 rise 2
  server a 127.0.0.1:$(instance_port a) check
  server b 127.0.0.1:$(instance_port b) check

listen stats
  bind 127.0.0.1:$STATS_PORT
  mode http
  stats enable
  stats uri /stats
CFG
  # One database listener per node: that node first, the others as backups, each checked by its wsrep state.
  for n in 1 2 3; do
    cat >>"$DIR/haproxy.cfg" <<CFG

listen db-node$n
  bind 127.0.0.1:$(db_proxy_port "$n")
  mode tcp
  timeout client 1h
  timeout server 1h
  option httpchk GET /
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions
CFG
    for b in 1 2 3; do
      echo "  server node$b 127.0.0.1:$(node_port "$b") check port $(check_port "$b")$([ "$b" = "$n" ] || echo ' backup')" >>"$DIR/haproxy.cfg"
    done
  done
}

up() {
  local n
  mkdir -p "$DIR/logs" "$DIR/pids" "$DIR/redis"
  chmod 755 "$DIR"
  for n in 1 2 3; do write_node_cnf "$n"; done
  log "node1: installing and bootstrapping a new cluster (--wsrep-new-cluster)"
  mariadb-install-db --defaults-file="$DIR/node1/my.cnf" --skip-test-db >"$DIR/logs/install.log" 2>&1
  node_start 1 --wsrep-new-cluster
  sql 1 "CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
    CREATE USER 'snippets'@'127.0.0.1' IDENTIFIED BY 'snippets';
    GRANT ALL ON *.* TO 'snippets'@'127.0.0.1';"
  for n in $(seq 2 "${CLUSTER_NODES:-3}"); do
    log "node$n: joining (SST by rsync)"
    node_start "$n"
  done
  log "cluster size $(sql 1 "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='WSREP_CLUSTER_SIZE'")"
  [ "${NODES_ONLY:-0}" = 0 ] || return 0
  spawn redis redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$DIR/redis"
  spawn galera-check env GALERA_CHECK_USER=snippets GALERA_CHECK_PASSWORD=snippets node "$ROOT/deploy/galera-check.mjs" \
    "$(check_port 1)=127.0.0.1:$(node_port 1)" "$(check_port 2)=127.0.0.1:$(node_port 2)" "$(check_port 3)=127.0.0.1:$(node_port 3)"
  write_haproxy_cfg
  spawn haproxy haproxy -db -f "$DIR/haproxy.cfg"
  # The database listeners mark their nodes up after `rise` checks.
  sleep 3
  log "instances a (node1) and b (node2), $(cat "$DIR/mode") database connections"
  instance_start a
  instance_start b
  cat >"$DIR/cluster.json" <<JSON
{"dir": "$DIR", "http": $HTTP_PORT, "stats": $STATS_PORT, "mode": "$(cat "$DIR/mode")",
 "nodes": {"1": $(node_port 1), "2": $(node_port 2), "3": $(node_port 3)},
 "instances": {"a": {"port": $(instance_port a), "node": 1}, "b": {"port": $(instance_port b), "node": 2},
               "c": {"port": $(instance_port c), "node": 1}, "d": {"port": $(instance_port d), "node": 2}}}
JSON
}

down() {
  local f
  [ -z "${DRIVER:-}" ] || kill -TERM -- "-$DRIVER" 2>/dev/null || true
  for f in "$DIR"/pids/*.pid; do
    [ -e "$f" ] || continue
    kill -KILL -- "-$(cat "$f")" 2>/dev/null || true
  done
  for f in "$DIR"/pids/*.pid; do
    [ -e "$f" ] || continue
    wait_gone "$(basename "$f" .pid)" 10 || true
  done
  rm -rf "$DIR"
}

ctl() {
  DIR=$1
  shift
  case $1 in
    node-start) node_start "$2" ;;
    node-stop) node_stop "$2" ;;
    node-kill) node_kill "$2" ;;
    instance-start) instance_start "$2" "${3:-}" ;;
    instance-stop) instance_stop "$2" ;;
    instance-kill) instance_kill "$2" ;;
    sql) sql "$2" "$3" ;;
    haproxy) haproxy_cmd "$2" ;;
    down) down ;;
    *) echo "cluster.sh ctl: unknown command $1" >&2; exit 2 ;;
  esac
}

main() {
  local keep=0 mode=proxy faults='' duration=20
  while [ $# -gt 0 ]; do
    case $1 in
      --keep) keep=1 ;;
      --direct) mode=direct ;;
      --faults) faults=$2; shift ;;
      --duration) duration=$2; shift ;;
      --nodes-only) NODES_ONLY=1 keep=1 ;;
      -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) echo "cluster.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
  done
  [ "$(id -u)" = 0 ] || { echo "cluster.sh: run as root (mariadbd runs as the mysql user)" >&2; exit 2; }
  DIR=$(mktemp -d /tmp/snippets-cluster.XXXXXX)
  if [ $keep = 1 ]; then
    trap 'log "left up in $DIR: scripts/cluster.sh ctl $DIR down"' EXIT
  else
    trap down EXIT
    trap 'exit 130' INT TERM
  fi
  echo $mode >"$DIR/mode"
  (cd "$ROOT" && npm run build --silent)
  up
  if [ "${NODES_ONLY:-0}" = 1 ]; then
    for n in $(seq 1 "${CLUSTER_NODES:-3}"); do echo "node$n mysql://snippets:snippets@127.0.0.1:$(node_port "$n")/"; done
    return 0
  fi
  local status=0
  # In the background and waited for: a signal to this script then runs its trap at once, not after the driver; in a
  # group of its own, so that the trap stops it with the `ctl` commands it has under way.
  setsid "$ROOT/node_modules/.bin/tsx" "$ROOT/bench/cluster.ts" "$DIR/cluster.json" --duration "$duration" ${faults:+--faults "$faults"} &
  DRIVER=$!
  wait $DRIVER || status=$?
  DRIVER=
  return $status
}

if [ "${1:-}" = ctl ]; then
  shift
  ctl "$@"
else
  main "$@"
fi
