import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  NewTfaMethod,
  TfaMethodRepository,
} from '../../application/ports/tfa-method.repository.port';
import { TfaMethod } from '../../domain/tfa-method';
import { TfaMethodRow, toTfaMethod } from './tfa-method.mapper';

const COLUMNS = `id, user_id, method, label, phone_number, totp_secret_ciphertext, is_primary,
  last_totp_step, created_at, last_used_at`;

/** Plain SQL: the compare-and-sets are single statements. */
@Injectable()
export class PostgresTfaMethodRepository extends TfaMethodRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async listByUser(userId: number): Promise<TfaMethod[]> {
    const rows = await this.tx.rows<TfaMethodRow>(
      `SELECT ${COLUMNS} FROM tfa_methods WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
    return rows.map(toTfaMethod);
  }

  async findById(id: number): Promise<TfaMethod | null> {
    if (!Number.isSafeInteger(id) || id > 2_147_483_647 || id < 1) return null;
    const rows = await this.tx.rows<TfaMethodRow>(
      `SELECT ${COLUMNS} FROM tfa_methods WHERE id = $1`,
      [id],
    );
    return rows[0] ? toTfaMethod(rows[0]) : null;
  }

  async create(method: NewTfaMethod): Promise<TfaMethod | null> {
    const rows = await this.tx.rows<TfaMethodRow>(
      `INSERT INTO tfa_methods (user_id, method, label, phone_number, is_primary, last_totp_step)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, method) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        method.userId,
        method.type,
        method.label,
        method.phoneNumber,
        method.isPrimary,
        method.lastTotpStep,
      ],
    );
    return rows[0] ? toTfaMethod(rows[0]) : null;
  }

  async setTotpSecret(methodId: number, ciphertext: string): Promise<void> {
    await this.tx.rows(`UPDATE tfa_methods SET totp_secret_ciphertext = $2 WHERE id = $1`, [
      methodId,
      ciphertext,
    ]);
  }

  async update(
    methodId: number,
    changes: { label?: string; isPrimary?: boolean },
  ): Promise<TfaMethod> {
    const rows = await this.tx.rows<TfaMethodRow>(
      `UPDATE tfa_methods
          SET label = COALESCE($2, label), is_primary = COALESCE($3, is_primary)
        WHERE id = $1
        RETURNING ${COLUMNS}`,
      [methodId, changes.label ?? null, changes.isPrimary ?? null],
    );
    return toTfaMethod(rows[0]);
  }

  async makeOnlyPrimary(userId: number, methodId: number): Promise<void> {
    await this.tx.rows(`UPDATE tfa_methods SET is_primary = (id = $2) WHERE user_id = $1`, [
      userId,
      methodId,
    ]);
  }

  async delete(methodId: number): Promise<void> {
    await this.tx.rows(`DELETE FROM tfa_methods WHERE id = $1`, [methodId]);
  }

  async recordUse(methodId: number, now: Date): Promise<void> {
    await this.tx.rows(`UPDATE tfa_methods SET last_used_at = $2 WHERE id = $1`, [methodId, now]);
  }

  async advanceTotpStep(methodId: number, step: number, usedAt: Date): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE tfa_methods SET last_totp_step = $2, last_used_at = $3
        WHERE id = $1 AND (last_totp_step IS NULL OR last_totp_step < $2)
        RETURNING id`,
      [methodId, step, usedAt],
    );
    return rows.length === 1;
  }
}
