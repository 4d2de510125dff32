import { AccountsError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { FixtureLoader, FixtureSummary } from '@app/platform';
import { CreateApiKeyUseCase } from '../application/api-keys/create-api-key.use-case';
import { CreateUserUseCase } from '../application/users/create-user.use-case';
import { TeamRepository } from '../application/ports/team.repository.port';

type Row = Record<string, unknown>;

function field<T>(
  row: Row,
  name: string,
  type: 'string' | 'number' | 'boolean',
  section: string,
): T | undefined {
  const value = row[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type)
    throw new AccountsError('bad_request', `${section}.${name} must be a ${type}`);
  return value as T;
}

function requireId(row: Row, section: string): number {
  const id = row.id;
  if (!Number.isInteger(id) || (id as number) <= 0) {
    throw new AccountsError('bad_request', `${section}: every row needs a positive integer id`);
  }
  return id as number;
}

/** `users`: explicit ids, optional explicit API key (see docs/fixtures.md). */
@Injectable()
export class UsersFixtureLoader extends FixtureLoader {
  readonly section = 'users';
  readonly order = 10;

  constructor(private readonly createUser: CreateUserUseCase) {
    super();
  }

  async load(rows: unknown[]): Promise<FixtureSummary> {
    const ids: number[] = [];
    for (const raw of rows as Row[]) {
      const id = requireId(raw, 'users');
      const email = field<string>(raw, 'email', 'string', 'users');
      if (!email) throw new AccountsError('bad_request', `users[${id}].email is required`);
      await this.createUser.execute({
        id,
        email,
        username: field<string>(raw, 'username', 'string', 'users') ?? null,
        password: field<string>(raw, 'password', 'string', 'users') ?? null,
        fullName: field<string>(raw, 'full_name', 'string', 'users') ?? '',
        verified: field<boolean>(raw, 'verified', 'boolean', 'users') ?? false,
        admin: field<boolean>(raw, 'admin', 'boolean', 'users') ?? false,
        phone: field<string>(raw, 'phone', 'string', 'users') ?? null,
        legacyTfa: field<boolean>(raw, 'legacy_tfa', 'boolean', 'users') ?? false,
        credit: field<number>(raw, 'credit', 'number', 'users') ?? 0,
        apiKey: field<string>(raw, 'api_key', 'string', 'users'),
      });
      ids.push(id);
    }
    return { count: ids.length, ids };
  }
}

/**
 * `teams`: members and team-scoped API keys. A key is for a member only (listed in the
 * row's `members`, or a member already): a team key acts within its member's role, and a
 * key of someone outside the team would have none to act within, so such a fixture is
 * refused, naming the key's place, rather than loaded (docs/fixtures.md).
 */
@Injectable()
export class TeamsFixtureLoader extends FixtureLoader {
  readonly section = 'teams';
  readonly order = 11;

  constructor(
    private readonly teams: TeamRepository,
    private readonly createApiKey: CreateApiKeyUseCase,
  ) {
    super();
  }

  async load(rows: unknown[]): Promise<FixtureSummary> {
    const ids: number[] = [];
    for (const raw of rows as Row[]) {
      const id = requireId(raw, 'teams');
      await this.teams.upsert({
        id,
        name: field<string>(raw, 'name', 'string', 'teams') ?? `team-${id}`,
      });
      for (const member of (raw.members as unknown[] | undefined) ?? []) {
        if (!Number.isInteger(member))
          throw new AccountsError('bad_request', `teams[${id}].members must be user ids`);
        await this.teams.addMember(id, member as number);
        // A fixture member is an owner of the team, as members were before roles existed.
        await this.teams.giveOwnerRole(id, member as number);
      }
      for (const key of (raw.api_keys as Row[] | undefined) ?? []) {
        const userId = field<number>(key, 'user_id', 'number', 'teams.api_keys');
        const value = field<string>(key, 'key', 'string', 'teams.api_keys');
        if (!userId || !value)
          throw new AccountsError('bad_request', `teams[${id}].api_keys need user_id and key`);
        if (!(await this.teams.isMember(id, userId)))
          throw new AccountsError(
            'bad_request',
            `teams[${id}].api_keys: user ${userId} is not a member of team ${id}; list them in teams[${id}].members first`,
          );
        await this.createApiKey.execute(userId, id, value);
      }
      ids.push(id);
    }
    return { count: ids.length, ids };
  }
}
