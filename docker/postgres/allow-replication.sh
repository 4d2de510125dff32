#!/bin/sh
# Runs once, when the primary's data directory is first created (docker-entrypoint-initdb.d):
# lets the replica stream WAL with the same password as the application.
set -e
echo "host replication ${POSTGRES_USER:-postgres} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
