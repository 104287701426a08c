#!/usr/bin/env bash
# Starts (or stops) a local MariaDB for the test suite, without systemd, and creates the test database. The user may
# also create and use snippets_test_w1, _w2…: under mocha --parallel each worker past the first has its own
# (test/support/workers.ts).
# Usage: scripts/ci-mariadb.sh start|stop     Prints the DATABASE_URL on start.
set -euo pipefail

DB=snippets_test
USER=snippets
PASS=snippets
PORT=3306
URL="mysql://$USER:$PASS@127.0.0.1:$PORT/$DB"
PIDFILE=/run/mysqld/ci-mariadb.pid

ping() { mariadb-admin --protocol=socket -uroot ping >/dev/null 2>&1; }

start() {
  if ! ping; then
    install -d -o mysql -g mysql /run/mysqld
    if [ ! -d /var/lib/mysql/mysql ]; then
      mariadb-install-db --user=mysql --datadir=/var/lib/mysql --skip-test-db >/dev/null
    fi
    mariadbd --user=mysql --datadir=/var/lib/mysql --bind-address=127.0.0.1 --port=$PORT \
      --pid-file=$PIDFILE --socket=/run/mysqld/mysqld.sock >/tmp/ci-mariadb.log 2>&1 &
    for _ in $(seq 1 60); do
      ping && break
      sleep 1
    done
    ping || { echo "MariaDB did not start within 60 s:" >&2; tail -20 /tmp/ci-mariadb.log >&2; exit 1; }
  fi
  mariadb --protocol=socket -uroot <<SQL
CREATE DATABASE IF NOT EXISTS $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
CREATE USER IF NOT EXISTS '$USER'@'localhost' IDENTIFIED BY '$PASS';
CREATE USER IF NOT EXISTS '$USER'@'127.0.0.1' IDENTIFIED BY '$PASS';
GRANT ALL ON \`${DB//_/\\_}%\`.* TO '$USER'@'localhost';
GRANT ALL ON \`${DB//_/\\_}%\`.* TO '$USER'@'127.0.0.1';
FLUSH PRIVILEGES;
SQL
  echo "$URL"
}

stop() {
  if [ -f $PIDFILE ]; then
    mariadb-admin --protocol=socket -uroot shutdown 2>/dev/null || kill "$(cat $PIDFILE)" 2>/dev/null || true
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
