#!/usr/bin/env bash
# A single-node stock OpenStack Swift with tempauth, from Debian's packages, as a
# real content destination for `bwc-emu upload` and test/interop/stock-swift.test.ts.
#
#   scripts/stock-swift.sh install          apt-get install the packages (root)
#   scripts/stock-swift.sh start            write configs, build rings, start memcached + 4 servers
#   scripts/stock-swift.sh stop             stop what start started (by pid file)
#   scripts/stock-swift.sh status           which processes run; does auth answer
#   scripts/stock-swift.sh connection-file  print a bwc-emu connection file for it
#   scripts/stock-swift.sh capabilities     upload System/Capabilities.json (all true) with `swift upload`
#   scripts/stock-swift.sh restart-object [SECONDS]
#                                           stop the object server, wait SECONDS (default 5), start it
#                                           again: an outage (the proxy then answers 503 for a while)
#   scripts/stock-swift.sh clean            stop and delete BWC_SWIFT_DIR (configs, rings, data)
#
# Everything lives under BWC_SWIFT_DIR (default /tmp/bwc-swift): etc/ (configs and
# rings), srv/d1 (the one "device": a plain directory, mount_check = false),
# run/ (pid files), log/ (server output). Only swift.conf is read from its fixed
# place, /etc/swift/swift.conf (Debian's package ships one with a hash suffix).
# start and stop are idempotent: start does nothing when all is up, stop when
# nothing is. Listens on 127.0.0.1 only.
#
# Environment (defaults):
#   BWC_SWIFT_DIR=/tmp/bwc-swift      BWC_SWIFT_PORT=8080 (proxy; the auth URL is
#   http://127.0.0.1:$BWC_SWIFT_PORT/auth/v1.0)   BWC_SWIFT_ACCOUNT=bws
#   BWC_SWIFT_USER=bws (tempauth user; log in as ACCOUNT:USER, i.e. bws:bws)
#   BWC_SWIFT_KEY=secret              BWC_SWIFT_BACKEND_PORT=6210 (object; container
#   +1, account +2)                   BWC_SWIFT_MEMCACHED_PORT=11212
set -euo pipefail

DIR="${BWC_SWIFT_DIR:-/tmp/bwc-swift}"
PORT="${BWC_SWIFT_PORT:-8080}"
ACCOUNT="${BWC_SWIFT_ACCOUNT:-bws}"
USER_NAME="${BWC_SWIFT_USER:-bws}"
KEY="${BWC_SWIFT_KEY:-secret}"
OBJECT_PORT="${BWC_SWIFT_BACKEND_PORT:-6210}"
CONTAINER_PORT=$((OBJECT_PORT + 1))
ACCOUNT_PORT=$((OBJECT_PORT + 2))
MEMCACHED_PORT="${BWC_SWIFT_MEMCACHED_PORT:-11212}"
HOST=127.0.0.1
AUTH_URL="http://$HOST:$PORT/auth/v1.0"
ETC="$DIR/etc"
RUN="$DIR/run"
LOG="$DIR/log"
SRV="$DIR/srv"
SERVERS=(object container account proxy)
PACKAGES=(swift swift-proxy swift-account swift-container swift-object memcached python3-swiftclient)

die() { echo "stock-swift: $*" >&2; exit 1; }
say() { echo "stock-swift: $*"; }

need_packages() {
  local missing=()
  for bin in swift-ring-builder swift-proxy-server swift-account-server swift-container-server swift-object-server memcached; do
    command -v "$bin" >/dev/null 2>&1 || missing+=("$bin")
  done
  [ ${#missing[@]} -eq 0 ] || die "missing ${missing[*]}; install with: sudo apt-get install ${PACKAGES[*]} (or: $0 install)"
  [ -r /etc/swift/swift.conf ] && grep -Eq '^\s*swift_hash_path_(suffix|prefix)\s*=\s*\S' /etc/swift/swift.conf && return 0
  # Swift reads swift.conf only from /etc/swift; write a minimal one when there is none.
  [ -w /etc/swift ] || mkdir -p /etc/swift 2>/dev/null || die "/etc/swift/swift.conf has no swift_hash_path_suffix and /etc/swift is not writable (run as root once)"
  [ -e /etc/swift/swift.conf ] && cp /etc/swift/swift.conf "/etc/swift/swift.conf.bwc-backup.$(date +%s)"
  printf '[swift-hash]\nswift_hash_path_suffix = bwc-emu\nswift_hash_path_prefix = bwc-emu\n\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n' >/etc/swift/swift.conf
  say "wrote /etc/swift/swift.conf"
}

pid_alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

auth_ok() {
  curl -fsS -m 3 -o /dev/null -D - -H "X-Auth-User: $ACCOUNT:$USER_NAME" -H "X-Auth-Key: $KEY" "$AUTH_URL" 2>/dev/null | grep -qi '^x-storage-url:'
}

port_free() {
  ! (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

write_configs() {
  mkdir -p "$ETC" "$RUN" "$LOG" "$SRV/d1"
  local me
  me="$(id -un)"
  local common="[DEFAULT]
bind_ip = $HOST
workers = 0
user = $me
swift_dir = $ETC
devices = $SRV
mount_check = false
disable_fallocate = true
log_level = INFO
"
  # The three storage servers differ only in their kind and port.
  for kind in object:$OBJECT_PORT container:$CONTAINER_PORT account:$ACCOUNT_PORT; do
    name=${kind%%:*}
    cat >"$ETC/$name-server.conf" <<EOF
$common
bind_port = ${kind##*:}
log_name = bwc-$name

[pipeline:main]
pipeline = healthcheck $name-server

[app:$name-server]
use = egg:swift#$name

[filter:healthcheck]
use = egg:swift#healthcheck
EOF
  done
  cat >"$ETC/proxy-server.conf" <<EOF
[DEFAULT]
bind_ip = $HOST
bind_port = $PORT
workers = 0
user = $me
swift_dir = $ETC
log_name = bwc-proxy
log_level = INFO

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl tempauth copy slo dlo versioned_writes symlink proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
allow_account_management = true

[filter:tempauth]
use = egg:swift#tempauth
# 15 minutes, like the real body worn system's example server (tempauth's default is a day).
token_life = 900
user_${ACCOUNT}_${USER_NAME} = $KEY .admin
user_admin_admin = admin .admin .reseller_admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = $HOST:$MEMCACHED_PORT

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:bulk]
use = egg:swift#bulk
[filter:tempurl]
use = egg:swift#tempurl
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
[filter:versioned_writes]
use = egg:swift#versioned_writes
[filter:symlink]
use = egg:swift#symlink
EOF
}

build_rings() {
  local kind port
  for kind in object container account; do
    case $kind in object) port=$OBJECT_PORT ;; container) port=$CONTAINER_PORT ;; account) port=$ACCOUNT_PORT ;; esac
    [ -f "$ETC/$kind.ring.gz" ] && continue
    # 2^10 partitions, 1 replica, min_part_hours 1; one device d1 (= $SRV/d1).
    swift-ring-builder "$ETC/$kind.builder" create 10 1 1 >/dev/null
    swift-ring-builder "$ETC/$kind.builder" add "r1z1-$HOST:$port/d1" 100 >/dev/null
    # rebalance exits 1 for warnings only.
    swift-ring-builder "$ETC/$kind.builder" rebalance >/dev/null || [ $? -eq 1 ] || die "rebalance of the $kind ring failed"
  done
}

start_one() {
  local name=$1
  shift
  if pid_alive "$name"; then return 0; fi
  nohup "$@" >>"$LOG/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
}

wait_port() {
  local port=$1 name=$2 i
  # 30 s: four Pythons importing Swift at once on a busy 2-core CI machine.
  for i in $(seq 1 300); do
    port_free "$port" || return 0
    pid_alive "$name" || { tail -20 "$LOG/$name.log" >&2; die "$name exited (log: $LOG/$name.log)"; }
    sleep 0.1
  done
  die "$name did not listen on $port within 30 s (log: $LOG/$name.log)"
}

cmd_start() {
  need_packages
  if auth_ok && pid_alive proxy; then
    say "already running: $AUTH_URL (user $ACCOUNT:$USER_NAME)"
    return 0
  fi
  local all_down=true s
  for s in memcached "${SERVERS[@]}"; do pid_alive "$s" && all_down=false; done
  if $all_down; then
    for p in "$PORT" "$OBJECT_PORT" "$CONTAINER_PORT" "$ACCOUNT_PORT" "$MEMCACHED_PORT"; do
      port_free "$p" || die "port $p on $HOST is taken by something else (set BWC_SWIFT_PORT / BWC_SWIFT_BACKEND_PORT / BWC_SWIFT_MEMCACHED_PORT)"
    done
  fi
  write_configs
  build_rings
  # All at once (the proxy reaches memcached and the servers only per request): the
  # start takes as long as the slowest Python importing Swift, not the sum of four.
  start_one memcached memcached -l "$HOST" -p "$MEMCACHED_PORT" -U 0 -m 64 -u "$(id -un)"
  start_one object swift-object-server "$ETC/object-server.conf" --verbose
  start_one container swift-container-server "$ETC/container-server.conf" --verbose
  start_one account swift-account-server "$ETC/account-server.conf" --verbose
  start_one proxy swift-proxy-server "$ETC/proxy-server.conf" --verbose
  wait_port "$MEMCACHED_PORT" memcached
  wait_port "$OBJECT_PORT" object
  wait_port "$CONTAINER_PORT" container
  wait_port "$ACCOUNT_PORT" account
  wait_port "$PORT" proxy
  local i
  for i in $(seq 1 150); do
    auth_ok && { say "running: $AUTH_URL (user $ACCOUNT:$USER_NAME, key $KEY; files under $DIR)"; return 0; }
    sleep 0.2
  done
  die "the proxy listens but auth at $AUTH_URL does not answer with X-Storage-Url (log: $LOG/proxy.log)"
}

cmd_stop() {
  local s stopped=false
  for s in proxy account container object memcached; do
    pid_alive "$s" && stopped=true
    stop_one "$s"
  done
  if $stopped; then say "stopped"; else say "not running"; fi
}

stop_one() {
  local name=$1 pid i
  [ -f "$RUN/$name.pid" ] || return 0
  pid=$(cat "$RUN/$name.pid")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$RUN/$name.pid"
}

cmd_restart_object() {
  local seconds=${1:-5} stopped started
  [[ "$seconds" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "restart-object takes seconds (e.g. 5), not '$seconds'"
  pid_alive object || die "the object server is not running (start first)"
  stop_one object
  stopped=$(date +%s.%N)
  say "object server stopped; starting it again in $seconds s"
  sleep "$seconds"
  start_one object swift-object-server "$ETC/object-server.conf" --verbose
  wait_port "$OBJECT_PORT" object
  started=$(date +%s.%N)
  say "object server listening again after $(awk "BEGIN { printf \"%.1f\", $started - $stopped }") s down"
}

cmd_status() {
  local s code=0
  for s in memcached "${SERVERS[@]}"; do
    if pid_alive "$s"; then echo "$s: running (pid $(cat "$RUN/$s.pid"))"; else echo "$s: stopped"; code=1; fi
  done
  if auth_ok; then echo "auth: $AUTH_URL answers for $ACCOUNT:$USER_NAME"; else echo "auth: $AUTH_URL does not answer"; code=1; fi
  return $code
}

cmd_connection_file() {
  cat <<EOF
{
  "ConnectionFileVersion": "1.0",
  "SiteName": "stock-swift",
  "ApplicationName": "OpenStack Swift (tempauth)",
  "ApplicationVersion": "$(dpkg-query -W -f='${Version}' swift-proxy 2>/dev/null || echo unknown)",
  "AuthenticationTokenURI": ["$AUTH_URL"],
  "BlobAPIUserName": "$ACCOUNT:$USER_NAME",
  "BlobAPIKey": "$KEY",
  "ContainerType": "mkv",
  "FullStoreAndReadSupport": false
}
EOF
}

cmd_capabilities() {
  command -v swift >/dev/null || die "the swift CLI is missing: apt-get install python3-swiftclient"
  local tmp
  tmp=$(mktemp -d)
  cat >"$tmp/Capabilities.json" <<'EOF'
{
  "Read": { "ReadCategories": true },
  "Store": { "StoreUserIDKey": true, "StoreBookmarks": true, "StoreSignedVideo": true, "StoreGNSSTrackRecording": true, "StoreRejectedContent": true },
  "StoreAndRead": { "StoreReadSystemID": true }
}
EOF
  printf '[{"Name": "Traffic", "Id": "1"}, {"Name": "Arrest", "Id": "2"}]\n' >"$tmp/Categories.json"
  (cd "$tmp" && swift -A "$AUTH_URL" -U "$ACCOUNT:$USER_NAME" -K "$KEY" upload System Capabilities.json Categories.json)
  rm -rf "$tmp"
}

case "${1:-}" in
  install) DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}" ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) cmd_stop; cmd_start ;;
  status) cmd_status ;;
  connection-file) cmd_connection_file ;;
  capabilities) cmd_capabilities ;;
  restart-object) cmd_restart_object "${2:-5}" ;;
  clean) cmd_stop; rm -rf "$DIR"; say "removed $DIR" ;;
  *) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
