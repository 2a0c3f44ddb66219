#!/usr/bin/env bash
# Installs (if needed) and starts a local PostgreSQL on 127.0.0.1 for the API's test suite, then prints
# the connection URL on stdout. Idempotent: safe to run again. Needs root (apt-get, pg_ctlcluster).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  { apt-get update -qq && apt-get install -y -qq postgresql; } >&2
fi
ver=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h | grep -q "^$ver main"; then
  pg_createcluster "$ver" main >&2
fi
conf=/etc/postgresql/$ver/main/postgresql.conf
grep -q "^listen_addresses = '127.0.0.1'" "$conf" || echo "listen_addresses = '127.0.0.1'" >>"$conf"
if ! pg_lsclusters -h | grep "^$ver main" | grep -q online; then
  pg_ctlcluster "$ver" main start >&2
fi
port=$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $3}')
su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='firm'\"" | grep -q 1 ||
  su postgres -c "psql -p $port -qc \"CREATE ROLE firm LOGIN PASSWORD 'firm' CREATEDB\"" >&2
su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_database WHERE datname='firm_test'\"" | grep -q 1 ||
  su postgres -c "psql -p $port -qc \"CREATE DATABASE firm_test OWNER firm\"" >&2
echo "postgres://firm:firm@127.0.0.1:$port/firm_test"
