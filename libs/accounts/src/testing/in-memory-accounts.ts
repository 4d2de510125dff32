import { Environment, loadPlatformConfig } from '@app/platform';
import { ManualClock, SeededRandomSource, testSecretKeeper } from '@app/platform/testing';
import { CredentialIssuer } from '../application/credential-issuer';
import {
  CredentialRepository,
  NewApiKey,
  NewSession,
} from '../application/ports/credential.repository.port';
import { LoginChallenge, LoginSecondFactor } from '../application/ports/login-second-factor.port';
import { LoginThrottle } from '../application/ports/login-throttle.port';
import { PasswordHasher } from '../application/ports/password-hasher.port';
import { SessionRevocation } from '../application/ports/session-revocation.port';
import {
  NewUser,
  UserRepository,
  UserWithPassword,
} from '../application/ports/user.repository.port';
import { CredentialRecord } from '../domain/credential';
import { TfaStatus, User } from '../domain/user';

/** In-memory fakes of the accounts ports, for use-case tests here and in other contexts. */

export class InMemoryUserRepository extends UserRepository {
  readonly users = new Map<number, User>();
  readonly passwordHashes = new Map<number, string | null>();

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
      createdAt: new Date(0),
      ...partial,
    };
    this.users.set(user.id, user);
    this.passwordHashes.set(user.id, passwordHash);
    return user;
  }
  async findById(id: number) {
    const user = this.users.get(id);
    return user ? { ...user } : null;
  }
  async findByLogin(usernameOrEmail: string): Promise<UserWithPassword | null> {
    const login = usernameOrEmail.toLowerCase();
    for (const user of this.users.values())
      if (user.email.toLowerCase() === login || user.username?.toLowerCase() === login)
        return { user: { ...user }, passwordHash: this.passwordHashes.get(user.id) ?? null };
    return null;
  }
  async create(user: NewUser): Promise<User> {
    return this.add({ id: this.users.size + 1, email: user.email });
  }
  async upsert(user: NewUser & { id: number }): Promise<User> {
    return this.add({ id: user.id, email: user.email });
  }
  async setTfaState(userId: number, enabled: boolean, status: TfaStatus) {
    Object.assign(this.users.get(userId)!, { tfaEnabled: enabled, tfaStatus: status });
  }
  async setSmsFraudFlag(userId: number, flaggedAt: Date | null) {
    const user = this.users.get(userId);
    if (!user) return false;
    user.smsFraudFlaggedAt = flaggedAt;
    return true;
  }
}

export class InMemoryCredentialRepository extends CredentialRepository {
  readonly apiKeys: Array<NewApiKey & { id: number }> = [];
  readonly sessions: Array<NewSession & { id: number; revokedAt: Date | null }> = [];
  private nextId = 1;

  async findByHash(): Promise<CredentialRecord | null> {
    return null;
  }
  async createApiKey(key: NewApiKey) {
    const id = this.nextId++;
    this.apiKeys.push({ ...key, id });
    return id;
  }
  async upsertApiKey(key: NewApiKey) {
    return this.createApiKey(key);
  }
  async createSession(session: NewSession) {
    const id = this.nextId++;
    this.sessions.push({ ...session, id, revokedAt: null });
    return id;
  }
  async revokeSession(sessionId: number, at: Date) {
    const session = this.sessions.find((s) => s.id === sessionId && !s.revokedAt);
    if (!session) return false;
    session.revokedAt = at;
    return true;
  }
  async revokeSessionsOf(userId: number, at: Date, exceptSessionId?: number) {
    let ended = 0;
    for (const session of this.sessions)
      if (session.userId === userId && !session.revokedAt && session.id !== exceptSessionId) {
        session.revokedAt = at;
        ended += 1;
      }
    return ended;
  }
}

/** Records what was revoked. */
export class RecordingSessionRevocation extends SessionRevocation {
  readonly calls: Array<{ userId: number; keepSessionId?: number }> = [];

  async revoke() {
    return true;
  }
  async revokeOthers(userId: number, keepSessionId?: number) {
    this.calls.push({ userId, keepSessionId });
    return 0;
  }
  async revokeAll() {
    return 0;
  }
}

/** `hashed:<password>`: enough to tell a right password from a wrong one. */
export class FakePasswordHasher extends PasswordHasher {
  readonly verified: Array<string | null> = [];

  async hash(password: string) {
    return `hashed:${password}`;
  }
  async verify(hash: string | null, password: string) {
    this.verified.push(hash);
    return hash === `hashed:${password}`;
  }
}

/** Budgets per key as the Redis throttle keeps them (no window: tests run inside one). */
export class InMemoryLoginThrottle extends LoginThrottle {
  readonly attempts = new Map<string, number>();

  constructor(private readonly budget = 10) {
    super();
  }

  async admit(keys: string[]) {
    if (keys.some((key) => (this.attempts.get(key) ?? 0) >= this.budget)) return false;
    for (const key of keys) this.attempts.set(key, (this.attempts.get(key) ?? 0) + 1);
    return true;
  }
  async succeeded(keys: string[]) {
    const [first, ...others] = keys;
    this.attempts.delete(first);
    for (const key of others)
      this.attempts.set(key, Math.max(0, (this.attempts.get(key) ?? 0) - 1));
  }
}

/** Answers a fixed challenge and records whom it was opened for. */
export class RecordingLoginSecondFactor extends LoginSecondFactor {
  readonly openedFor: User[] = [];

  constructor(private readonly challenge: LoginChallenge = { secret: 'tfa-secret', methods: [] }) {
    super();
  }

  async openLoginChallenge(user: User) {
    this.openedFor.push(user);
    return this.challenge;
  }
}

/** A real CredentialIssuer over an in-memory credential store, with test keys and clock. */
export function testCredentialIssuer(
  credentials = new InMemoryCredentialRepository(),
  clock = new ManualClock(),
): CredentialIssuer {
  return new CredentialIssuer(
    credentials,
    testSecretKeeper(),
    new SeededRandomSource(7),
    clock,
    loadPlatformConfig(new Environment({})),
  );
}
