import { AccountsError } from '../../domain/errors';
import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { TfaStatus, User } from '../../domain/user';
import { CredentialCache } from '../../application/ports/credential-cache.port';
import {
  NewUser,
  UserRepository,
  UserWithPassword,
} from '../../application/ports/user.repository.port';
import { toUser } from './user.mapper';
import { UserOrmEntity } from './user.orm-entity';

const UNIQUE_VIOLATION = '23505';

interface UserRow {
  id: number;
  email: string;
  username: string | null;
  full_name: string;
  email_verified_at: Date | null;
  is_admin: boolean;
  phone_number: string | null;
  tfa_enabled: boolean;
  tfa_status: TfaStatus;
  credit: string | null;
  balance: string | null;
  sms_fraud_flagged_at: Date | null;
  created_at: Date;
}

@Injectable()
export class TypeormUserRepository extends UserRepository {
  constructor(
    private readonly tx: TransactionalEntityManager,
    private readonly credentialCache: CredentialCache,
  ) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(UserOrmEntity);
  }

  /**
   * Every authenticated request that needs its user reads it here, so it is one plain
   * statement: the ORM's query building and hydration cost more than the round trip.
   */
  async findById(id: number): Promise<User | null> {
    const rows: UserRow[] = await this.tx.manager.query(
      `SELECT id, email, username, full_name, email_verified_at, is_admin, phone_number,
              tfa_enabled, tfa_status, credit, balance, sms_fraud_flagged_at, created_at
         FROM users WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      email: row.email,
      username: row.username,
      fullName: row.full_name,
      emailVerifiedAt: row.email_verified_at,
      isAdmin: row.is_admin,
      phoneNumber: row.phone_number,
      tfaEnabled: row.tfa_enabled,
      tfaStatus: row.tfa_status,
      credit: row.credit === null ? 0 : Number(row.credit),
      balance: row.balance === null ? 0 : Number(row.balance),
      smsFraudFlaggedAt: row.sms_fraud_flagged_at,
      createdAt: row.created_at,
    };
  }

  async findByLogin(usernameOrEmail: string): Promise<UserWithPassword | null> {
    const row = await this.repo
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:login) OR lower(u.username) = lower(:login)', {
        login: usernameOrEmail,
      })
      .orderBy('u.id')
      .getOne();
    return row ? { user: toUser(row), passwordHash: row.passwordHash } : null;
  }

  async create(user: NewUser): Promise<User> {
    try {
      const row = await this.repo.save(this.repo.create(this.toRow(user)));
      return toUser((await this.repo.findOneByOrFail({ id: row.id })) as UserOrmEntity);
    } catch (error) {
      throw this.translate(error, user);
    }
  }

  async upsert(user: NewUser & { id: number }): Promise<User> {
    try {
      await this.repo.upsert(this.toRow(user), { conflictPaths: ['id'] });
      // The admin flag travels with every cached key of the user.
      this.credentialCache.userChanged(user.id);
      return toUser(await this.repo.findOneByOrFail({ id: user.id }));
    } catch (error) {
      throw this.translate(error, user);
    }
  }

  async setTfaState(userId: number, enabled: boolean, status: TfaStatus): Promise<void> {
    await this.repo.update({ id: userId }, {
      tfaEnabled: enabled,
      tfaStatus: status,
      updatedAt: () => 'now()',
    } as never);
  }

  async setSmsFraudFlag(userId: number, flaggedAt: Date | null): Promise<boolean> {
    const result = await this.repo.update({ id: userId }, { smsFraudFlaggedAt: flaggedAt });
    return (result.affected ?? 0) > 0;
  }

  private toRow(user: NewUser): Partial<UserOrmEntity> {
    const tfaStatus = user.tfaStatus ?? 'disabled';
    return {
      ...(user.id !== undefined ? { id: user.id } : {}),
      email: user.email,
      username: user.username ?? null,
      fullName: user.fullName ?? '',
      passwordHash: user.passwordHash ?? null,
      emailVerifiedAt: user.emailVerified ? new Date() : null,
      isAdmin: user.isAdmin ?? false,
      phoneNumber: user.phoneNumber ?? null,
      tfaEnabled: tfaStatus !== 'disabled',
      tfaStatus,
      credit: user.credit ?? 0,
      balance: user.credit ?? 0,
    };
  }

  private translate(error: unknown, user: NewUser): unknown {
    if ((error as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION) {
      return new AccountsError(
        'bad_request',
        `A user with email ${user.email} or that username already exists`,
      );
    }
    return error;
  }
}
