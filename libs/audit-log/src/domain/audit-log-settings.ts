/** The audit log's settings (README "Configuration"; infrastructure/audit-log-config.ts). */
export class AuditLogSettings {
  /** `manage audit:prune` deletes entries older than this many days. */
  retentionDays: number;
  /**
   * The longest a request waits for its entry to be written before it is answered anyway
   * (the entry stays queued and is written when the database answers).
   */
  appendWaitMs: number;
}
