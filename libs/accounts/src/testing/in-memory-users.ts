import { CredentialCache } from '../application/ports/credential-cache.port';
import {
  NewUser,
  UserRepository,
  UserWithPassword,
} from '../application/ports/user.repository.port';
import { AccountsError } from '../domain/errors';
import { TfaStatus, User, UserSettingsChange } from '../domain/user';
import { InMemoryCredentialCache } from './in-memory-credential-cache';

/**
 * Users in memory, held to PostgresUserRepository's answers by
 * testing/user-repository.contract.ts: ids from 1,000,000, emails and usernames unique
 * without regard to case, the balance starting at the credit.
 */
export class InMemoryUserRepository extends UserRepository {
  readonly rows = new Map<number, UserWithPassword>();
  private sequence = 1_000_000;

  constructor(
    private readonly cache: CredentialCache = new InMemoryCredentialCache(),
    private readonly now = () => new Date(),
  ) {
    super();
  }

  /** Seeds a user as it is, for tests that need one in a given state (no uniqueness checks). */
  add(partial: Partial<User> & { id: number }, passwordHash: string | null = null): User {
    const user: User = {
      email: `user${partial.id}@example.test`,
      username: null,
      fullName: '',
      emailVerifiedAt: new Date(0),
      isAdmin: false,
      phoneNumber: null,
      tfaEnabled: false,
      tfaStatus: 'disabled',
      credit: 0,
      balance: 0,
      smsFraudFlaggedAt: null,
      balanceThreshold: 0,
      balanceThresholdEnabled: false,
      createdAt: new Date(0),
      ...partial,
    };
    this.rows.set(user.id, { user, passwordHash });
    return { ...user };
  }

  async findById(id: number): Promise<User | null> {
    const row = this.rows.get(id);
    return row ? { ...row.user } : null;
  }

  async findByLogin(usernameOrEmail: string): Promise<UserWithPassword | null> {
    const login = usernameOrEmail.toLowerCase();
    const [row] = [...this.rows.values()]
      .filter(
        ({ user }) => user.email.toLowerCase() === login || user.username?.toLowerCase() === login,
      )
      .sort((a, b) => a.user.id - b.user.id);
    return row ? { user: { ...row.user }, passwordHash: row.passwordHash } : null;
  }

  async create(user: NewUser): Promise<User> {
    return this.store(this.sequence++, user, null);
  }

  async upsert(user: NewUser & { id: number }): Promise<User> {
    const stored = this.store(user.id, user, this.rows.get(user.id)?.user ?? null);
    this.cache.userChanged(user.id);
    return stored;
  }

  async setTfaState(userId: number, enabled: boolean, status: TfaStatus): Promise<void> {
    const row = this.rows.get(userId);
    if (row) row.user = { ...row.user, tfaEnabled: enabled, tfaStatus: status };
  }

  async setSmsFraudFlag(userId: number, flaggedAt: Date | null): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row) return false;
    row.user = { ...row.user, smsFraudFlaggedAt: flaggedAt };
    return true;
  }

  async replacePasswordHash(userId: number, expected: string, hash: string): Promise<void> {
    const row = this.rows.get(userId);
    if (row && row.passwordHash === expected) row.passwordHash = hash;
  }

  async changeSettings(userId: number, change: UserSettingsChange): Promise<User | null> {
    const row = this.rows.get(userId);
    if (!row) return null;
    row.user = { ...row.user, ...change };
    return { ...row.user };
  }

  private store(id: number, user: NewUser, replaced: User | null): User {
    const taken = (value: string | null | undefined, of: (other: User) => string | null) =>
      value != null &&
      [...this.rows.values()].some(
        (row) => row.user.id !== id && of(row.user)?.toLowerCase() === value.toLowerCase(),
      );
    if (taken(user.email, (other) => other.email) || taken(user.username, (o) => o.username)) {
      throw new AccountsError(
        'bad_request',
        `A user with email ${user.email} or that username already exists`,
      );
    }
    const tfaStatus = user.tfaStatus ?? 'disabled';
    const stored: User = {
      id,
      email: user.email,
      username: user.username ?? null,
      fullName: user.fullName ?? '',
      emailVerifiedAt: user.emailVerified ? this.now() : null,
      isAdmin: user.isAdmin ?? false,
      phoneNumber: user.phoneNumber ?? null,
      tfaEnabled: tfaStatus !== 'disabled',
      tfaStatus,
      credit: user.credit ?? 0,
      balance: user.credit ?? 0,
      smsFraudFlaggedAt: replaced?.smsFraudFlaggedAt ?? null,
      balanceThreshold: replaced?.balanceThreshold ?? 0,
      balanceThresholdEnabled: replaced?.balanceThresholdEnabled ?? false,
      createdAt: replaced?.createdAt ?? this.now(),
    };
    this.rows.set(id, { user: stored, passwordHash: user.passwordHash ?? null });
    return { ...stored };
  }
}
