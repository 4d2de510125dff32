-- Runs once, when the primary's data directory is first created (docker-entrypoint-initdb.d).
-- Behind PgBouncer the processes' own statement and lock timeouts (startup parameters) are
-- dropped by its ignore_startup_parameters, so the database carries them instead: the
-- values of DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_LOCK_TIMEOUT_MS (docs/decisions.md
-- "PgBouncer"). Migrations lift the statement timeout on their own session.
ALTER DATABASE gpumarket SET statement_timeout = '30s';
ALTER DATABASE gpumarket SET lock_timeout = '5s';
