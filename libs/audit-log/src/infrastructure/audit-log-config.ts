import { ConfigReader, Environment } from '@app/platform';
import { AuditLogSettings } from '../domain/audit-log-settings';

/** AUDIT_LOG_RETENTION_DAYS and AUDIT_LOG_APPEND_WAIT_MS (README "Configuration"). */
export function loadAuditLogSettings(env: Environment): AuditLogSettings {
  const read = new ConfigReader(env);
  const settings = new AuditLogSettings();
  settings.retentionDays = read.integer('AUDIT_LOG_RETENTION_DAYS', 400, 1, 36_500);
  settings.appendWaitMs = read.integer('AUDIT_LOG_APPEND_WAIT_MS', 2_000, 1, 60_000);
  read.done();
  return settings;
}
