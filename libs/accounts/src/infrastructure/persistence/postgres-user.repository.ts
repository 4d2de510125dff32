import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { CredentialCache } from '../../application/ports/credential-cache.port';
import {
  NewUser,
  UserRepository,
  UserWithPassword,
} from '../../application/ports/user.repository.port';
import { AccountsError } from '../../domain/errors';
import { TfaStatus, User, UserSettingsChange } from '../../domain/user';
import { toUser, USER_COLUMNS, USER_WRITE_COLUMNS, UserRow, userWriteParams } from './user.mapper';

const UNIQUE_VIOLATION = '23505';

const WRITE_VALUES = `$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11`;

@Injectable()
export class PostgresUserRepository extends UserRepository {
  constructor(
    private readonly tx: TransactionalEntityManager,
    private readonly credentialCache: CredentialCache,
  ) {
    super();
  }

  /** Every authenticated request that needs its user reads it here: one plain statement. */
  async findById(id: number): Promise<User | null> {
    const [row] = await this.tx.rows<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [
      id,
    ]);
    return row ? toUser(row) : null;
  }

  /** Case-insensitive on both; were a name one user's email and another's username, the older user. */
  async findByLogin(usernameOrEmail: string): Promise<UserWithPassword | null> {
    const [row] = await this.tx.rows<UserRow>(
      `SELECT ${USER_COLUMNS}, password_hash FROM users
        WHERE lower(email) = lower($1) OR lower(username) = lower($1)
        ORDER BY id
        LIMIT 1`,
      [usernameOrEmail],
    );
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  async create(user: NewUser): Promise<User> {
    const [row] = await this.write(
      user,
      `INSERT INTO users (${USER_WRITE_COLUMNS}) VALUES (${WRITE_VALUES})
       RETURNING ${USER_COLUMNS}`,
      userWriteParams(user, new Date()),
    );
    return toUser(row);
  }

  async upsert(user: NewUser & { id: number }): Promise<User> {
    const [row] = await this.write(
      user,
      `INSERT INTO users (${USER_WRITE_COLUMNS}, id) VALUES (${WRITE_VALUES}, $12)
       ON CONFLICT (id) DO UPDATE SET
         email = EXCLUDED.email, username = EXCLUDED.username, full_name = EXCLUDED.full_name,
         password_hash = EXCLUDED.password_hash, email_verified_at = EXCLUDED.email_verified_at,
         is_admin = EXCLUDED.is_admin, phone_number = EXCLUDED.phone_number,
         tfa_enabled = EXCLUDED.tfa_enabled, tfa_status = EXCLUDED.tfa_status,
         credit = EXCLUDED.credit, balance = EXCLUDED.balance
       RETURNING ${USER_COLUMNS}`,
      [...userWriteParams(user, new Date()), user.id],
    );
    // The admin flag travels with every cached key of the user.
    this.credentialCache.userChanged(user.id);
    return toUser(row);
  }

  async setTfaState(userId: number, enabled: boolean, status: TfaStatus): Promise<void> {
    await this.tx.rows(
      `UPDATE users SET tfa_enabled = $2, tfa_status = $3, updated_at = now() WHERE id = $1`,
      [userId, enabled, status],
    );
    // A team that requires 2FA reads it with every cached team key of the user.
    this.credentialCache.userChanged(userId);
  }

  async setSmsFraudFlag(userId: number, flaggedAt: Date | null): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE users SET sms_fraud_flagged_at = $2 WHERE id = $1 RETURNING id`,
      [userId, flaggedAt],
    );
    return rows.length > 0;
  }

  async replacePasswordHash(userId: number, expected: string, hash: string): Promise<void> {
    // Only the hash that was checked: a password changed meanwhile stays changed.
    await this.tx.rows(`UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2`, [
      userId,
      expected,
      hash,
    ]);
  }

  /** An email or username another user has (case-insensitive) is the caller's mistake. */
  async changeSettings(userId: number, change: UserSettingsChange): Promise<User | null> {
    const [row] = await this.tx.rows<UserRow>(
      `UPDATE users SET
          balance_threshold = coalesce($2::numeric, balance_threshold),
          balance_threshold_enabled = coalesce($3::boolean, balance_threshold_enabled)
        WHERE id = $1
        RETURNING ${USER_COLUMNS}`,
      [userId, change.balanceThreshold ?? null, change.balanceThresholdEnabled ?? null],
    );
    return row ? toUser(row) : null;
  }

  private async write(user: NewUser, sql: string, params: unknown[]): Promise<UserRow[]> {
    try {
      return await this.tx.rows<UserRow>(sql, params);
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION) {
        throw new AccountsError(
          'bad_request',
          `A user with email ${user.email} or that username already exists`,
        );
      }
      throw error;
    }
  }
}
