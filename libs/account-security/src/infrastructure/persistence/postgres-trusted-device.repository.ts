import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  NewTrustedDevice,
  TrustedDeviceRepository,
} from '../../application/ports/trusted-device.repository.port';
import { TrustedDevice } from '../../domain/trusted-device';

interface TrustedDeviceRow {
  id: number;
  user_id: number;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
  user_agent: string | null;
  client_address: string | null;
  revoked_at: Date | null;
}

const COLUMNS =
  'id, user_id, created_at, last_used_at, expires_at, user_agent, client_address, revoked_at';

function toTrustedDevice(row: TrustedDeviceRow): TrustedDevice {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
    clientAddress: row.client_address,
    revokedAt: row.revoked_at,
  };
}

@Injectable()
export class PostgresTrustedDeviceRepository extends TrustedDeviceRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async create(device: NewTrustedDevice): Promise<TrustedDevice> {
    const rows = await this.tx.rows<TrustedDeviceRow>(
      `INSERT INTO tfa_trusted_devices
         (user_id, token_fingerprint, created_at, expires_at, user_agent, client_address)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${COLUMNS}`,
      [
        device.userId,
        device.tokenFingerprint,
        device.createdAt,
        device.expiresAt,
        device.userAgent,
        device.clientAddress,
      ],
    );
    return toTrustedDevice(rows[0]);
  }

  async findActive(
    userId: number,
    fingerprints: string[],
    now: Date,
  ): Promise<TrustedDevice | null> {
    const rows = await this.tx.rows<TrustedDeviceRow>(
      `SELECT ${COLUMNS} FROM tfa_trusted_devices
        WHERE token_fingerprint = ANY($1::text[]) AND user_id = $2
          AND revoked_at IS NULL AND expires_at > $3
        LIMIT 1`,
      [fingerprints, userId, now],
    );
    return rows.length > 0 ? toTrustedDevice(rows[0]) : null;
  }

  async recordUse(deviceId: number, now: Date): Promise<void> {
    await this.tx.rows(`UPDATE tfa_trusted_devices SET last_used_at = $2 WHERE id = $1`, [
      deviceId,
      now,
    ]);
  }

  async listActive(userId: number, now: Date): Promise<TrustedDevice[]> {
    const rows = await this.tx.rows<TrustedDeviceRow>(
      `SELECT ${COLUMNS} FROM tfa_trusted_devices
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
        ORDER BY id DESC`,
      [userId, now],
    );
    return rows.map(toTrustedDevice);
  }

  async revoke(userId: number, deviceId: number, now: Date): Promise<boolean> {
    const rows = await this.tx.rows(
      `UPDATE tfa_trusted_devices SET revoked_at = $3
        WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3
        RETURNING id`,
      [deviceId, userId, now],
    );
    return rows.length > 0;
  }

  async revokeAll(userId: number, now: Date): Promise<number> {
    const rows = await this.tx.rows(
      `UPDATE tfa_trusted_devices SET revoked_at = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
        RETURNING id`,
      [userId, now],
    );
    return rows.length;
  }

  async revokeBeyond(userId: number, keep: number, now: Date): Promise<number> {
    const rows = await this.tx.rows(
      `UPDATE tfa_trusted_devices SET revoked_at = $3
        WHERE id IN (SELECT id FROM tfa_trusted_devices
                      WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $3
                      ORDER BY id DESC OFFSET $2)
        RETURNING id`,
      [userId, keep, now],
    );
    return rows.length;
  }
}
