import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { BackupCodeRepository } from '../../application/ports/backup-code.repository.port';

@Injectable()
export class PostgresBackupCodeRepository extends BackupCodeRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async replaceSet(userId: number, digests: string[]): Promise<void> {
    await this.tx.rows(
      `UPDATE tfa_backup_codes SET deleted_at = now() WHERE user_id = $1 AND deleted_at IS NULL`,
      [userId],
    );
    await this.tx.rows(
      `INSERT INTO tfa_backup_codes (user_id, code_digest) SELECT $1, unnest($2::text[])`,
      [userId, digests],
    );
  }

  async countUnused(userId: number): Promise<number> {
    const rows = await this.tx.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM tfa_backup_codes
        WHERE user_id = $1 AND used_at IS NULL AND deleted_at IS NULL`,
      [userId],
    );
    return rows[0].n;
  }

  async consume(userId: number, digest: string, now: Date): Promise<boolean> {
    // The row lock of UPDATE ... WHERE used_at IS NULL lets exactly one caller win.
    const rows = await this.tx.rows(
      `UPDATE tfa_backup_codes SET used_at = $3
        WHERE id = (SELECT id FROM tfa_backup_codes
                     WHERE user_id = $1 AND code_digest = $2 AND used_at IS NULL AND deleted_at IS NULL
                     LIMIT 1)
          AND used_at IS NULL
        RETURNING id`,
      [userId, digest, now],
    );
    return rows.length === 1;
  }

  async wasUsed(userId: number, digest: string): Promise<boolean> {
    const rows = await this.tx.rows(
      `SELECT 1 FROM tfa_backup_codes
        WHERE user_id = $1 AND code_digest = $2 AND used_at IS NOT NULL LIMIT 1`,
      [userId, digest],
    );
    return rows.length > 0;
  }

  async softDeleteAll(userId: number, now: Date): Promise<void> {
    await this.tx.rows(
      `UPDATE tfa_backup_codes SET deleted_at = $2 WHERE user_id = $1 AND deleted_at IS NULL`,
      [userId, now],
    );
  }
}
