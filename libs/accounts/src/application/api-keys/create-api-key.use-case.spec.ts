import { accountsKit } from '../../testing/accounts-kit';
import { CreateApiKeyUseCase } from './create-api-key.use-case';

describe('CreateApiKeyUseCase', () => {
  let kit: ReturnType<typeof accountsKit>;
  let createApiKey: CreateApiKeyUseCase;
  let userId: number;

  beforeEach(async () => {
    kit = accountsKit();
    createApiKey = new CreateApiKeyUseCase(kit.users, kit.teams, kit.issuer);
    userId = (await kit.users.create({ email: 'ada@example.test' })).id;
  });

  it('makes a personal key that authenticates as the user', async () => {
    const key = await createApiKey.execute(userId);
    expect(await kit.credentials.findByHash(kit.issuer.fingerprint(key))).toMatchObject({
      kind: 'api_key',
      userId,
      teamId: null,
    });
  });

  it('makes a team key only for a member of the team', async () => {
    const teamId = await kit.teams.create('engines');
    await expect(createApiKey.execute(userId, teamId)).rejects.toMatchObject({
      code: 'bad_request',
      message: `User ${userId} is not a member of team ${teamId}`,
    });
    expect(kit.credentials.rows).toHaveLength(0);
    await kit.teams.addMember(teamId, userId);
    const key = await createApiKey.execute(userId, teamId);
    expect(await kit.credentials.findByHash(kit.issuer.fingerprint(key))).toMatchObject({
      userId,
      teamId,
    });
  });

  it('keeps an explicit key string as given (fixtures)', async () => {
    expect(await createApiKey.execute(userId, null, 'example-key')).toBe('example-key');
    expect(await kit.credentials.findByHash(kit.issuer.fingerprint('example-key'))).not.toBeNull();
  });

  it('refuses an unknown user', async () => {
    await expect(createApiKey.execute(424242)).rejects.toMatchObject({
      code: 'not_found',
      message: 'No user 424242',
    });
    expect(kit.credentials.rows).toHaveLength(0);
  });
});
