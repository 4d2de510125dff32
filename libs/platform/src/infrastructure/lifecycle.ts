/** Process lifecycle facts that readiness reports: an instance draining or not migrated yet. */
export class Lifecycle {
  draining = false;
  migrationsPending = true;
  /** Re-reads the migration state; set by the platform once the database is connected. */
  checkMigrations: () => Promise<boolean> = async () => this.migrationsPending;

  /** While migrations are pending, every readiness probe looks again (a release step may have run them). */
  async stillPendingMigrations(): Promise<boolean> {
    if (this.migrationsPending) this.migrationsPending = await this.checkMigrations();
    return this.migrationsPending;
  }
}
