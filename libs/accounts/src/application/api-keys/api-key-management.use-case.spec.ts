import { FULL_PERMISSIONS, parsePermissionDocument, Permissions, Principal } from '@app/platform';
import { InlineUnitOfWork, StaticAccessCatalog, testOrigin } from '@app/platform/testing';
import { ApiKey, parseKeyParams } from '../../domain/api-key';
import { accountsKit } from '../../testing/accounts-kit';
import { RecordingApiKeyAudit } from '../../testing/recording-api-key-audit';
import { AuthenticateBearerUseCase } from '../credentials/authenticate-bearer.use-case';
import { CallerGrant } from './caller-grant.service';
import { CreateOwnApiKeyUseCase } from './create-own-api-key.use-case';
import { DeleteApiKeyUseCase } from './delete-api-key.use-case';
import { ListApiKeysUseCase } from './list-api-keys.use-case';
import { ResetMainApiKeyUseCase } from './reset-main-api-key.use-case';

const ORIGIN = testOrigin();
const catalog = new StaticAccessCatalog({
  'api.charges.show': 'billing_read',
  'api.endptjobs.update': 'misc',
  'api.endptjobs.delete': 'misc',
  'api.apikeys.create': 'user_write',
});

const ENDPOINT_42 = {
  api: {
    misc: {
      'api.endptjobs.update': { constraints: { id: { eq: 42 } } },
      'api.endptjobs.delete': { constraints: { id: { eq: 42 } } },
    },
    user_write: {},
  },
};

describe('API key management', () => {
  let kit: ReturnType<typeof accountsKit>;
  let audit: RecordingApiKeyAudit;
  let create: CreateOwnApiKeyUseCase;
  let remove: DeleteApiKeyUseCase;
  let reset: ResetMainApiKeyUseCase;
  let list: ListApiKeysUseCase;
  let authenticate: AuthenticateBearerUseCase;
  let userId: number;
  let mainKey: string;

  beforeEach(async () => {
    kit = accountsKit();
    audit = new RecordingApiKeyAudit();
    const uow = new InlineUnitOfWork();
    const grant = new CallerGrant(kit.apiKeys);
    create = new CreateOwnApiKeyUseCase(catalog, grant, kit.issuer, uow, kit.clock, audit);
    remove = new DeleteApiKeyUseCase(kit.apiKeys, grant, uow, kit.clock, audit);
    reset = new ResetMainApiKeyUseCase(kit.apiKeys, kit.issuer, uow, kit.clock, audit);
    list = new ListApiKeysUseCase(kit.apiKeys);
    authenticate = new AuthenticateBearerUseCase(kit.credentials, kit.issuer, kit.clock, kit.cache);
    userId = (await kit.users.create({ email: 'ada@example.test' })).id;
    mainKey = await kit.issuer.issueApiKey(userId, null, undefined, { main: true });
  });

  const principalOf = (key: string): Promise<Principal> => authenticate.execute(key);

  const keyParams = (raw: unknown) => {
    const parsed = parseKeyParams(raw);
    if (!parsed.ok) throw new Error(parsed.problem);
    return parsed.value;
  };

  const make = async (
    parent: string,
    permissions: unknown,
    extra: { keyParams?: unknown; expiry?: { ttlSeconds: number } | { at: Date } | null } = {},
  ): Promise<{ key: string; apiKey: ApiKey }> =>
    create.execute({
      principal: await principalOf(parent),
      name: 'child',
      permissions,
      keyParams: keyParams(extra.keyParams ?? null),
      expiry: extra.expiry ?? null,
      origin: ORIGIN,
    });

  describe('create', () => {
    it('makes a scoped key the main key may make; it authenticates with its document', async () => {
      const { key, apiKey } = await make(mainKey, ENDPOINT_42);
      expect(key).toMatch(/^gmk_[0-9A-Za-z]{43}$/);
      expect(apiKey).toMatchObject({ userId, teamId: null, name: 'child', main: false });
      const principal = await principalOf(key);
      expect(principal.permissions.full).toBe(false);
      expect(principal.permissions).toEqual(
        (parsePermissionDocument(ENDPOINT_42) as { permissions: Permissions }).permissions,
      );
      expect(audit.changes).toEqual([
        {
          userId,
          kind: 'created',
          keyId: apiKey.id,
          name: 'child',
          prefix: key.slice(0, 8),
          origin: ORIGIN,
        },
      ]);
    });

    it('without a document, a full key; a session counts as the full key of its user', async () => {
      const session = await kit.issuer.issueSession(userId);
      const { key } = await make(session.sessionKey, null);
      expect((await principalOf(key)).permissions).toEqual(FULL_PERMISSIONS);
    });

    it('refuses what is beyond the calling key: a category, a route, a looser constraint, full access', async () => {
      const { key: scoped } = await make(mainKey, ENDPOINT_42);
      const cases: Array<[unknown, string]> = [
        [{ api: { billing_read: {} } }, 'billing_read'],
        [{ api: { misc: {} } }, 'misc (every route)'],
        [
          {
            api: {
              misc: { 'api.endptjobs.update': { constraints: { id: { gte: 40, lte: 50 } } } },
            },
          },
          'misc: api.endptjobs.update beyond id eq 42',
        ],
        [null, 'full access (no permission document)'],
      ];
      for (const [permissions, beyond] of cases) {
        await expect(make(scoped, permissions)).rejects.toMatchObject({
          code: 'permission_denied',
          message: `Permission denied: a key can only make keys within its own permissions; this one would have ${beyond}`,
        });
      }
      // Narrower is fine, and so is the same again.
      await make(scoped, {
        api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: '42' } } } } },
      });
      await make(scoped, ENDPOINT_42);
      expect(audit.changes.filter((change) => change.kind === 'created')).toHaveLength(3);
    });

    it('takes the ip_whitelist and expiry of the calling key when it gives none, and refuses wider ones', async () => {
      const in1h = { at: new Date(kit.clock.nowMs() + 3_600_000) };
      const { key: parent } = await make(mainKey, ENDPOINT_42, {
        keyParams: { ip_whitelist: ['10.0.0.0/8'] },
        expiry: in1h,
      });
      const { apiKey: inherited } = await make(parent, ENDPOINT_42);
      expect(inherited.keyParams).toEqual({ ip_whitelist: ['10.0.0.0/8'] });
      expect(inherited.expiresAt).toEqual(in1h.at);
      await expect(
        make(parent, ENDPOINT_42, { keyParams: { ip_whitelist: ['0.0.0.0/0'] } }),
      ).rejects.toMatchObject({ code: 'permission_denied' });
      await expect(
        make(parent, ENDPOINT_42, { expiry: { ttlSeconds: 7200 } }),
      ).rejects.toMatchObject({
        code: 'permission_denied',
        message: expect.stringContaining('an expiry after'),
      });
      const { apiKey: narrower } = await make(parent, ENDPOINT_42, {
        keyParams: '{"ip_whitelist": "10.1.0.0/16"}',
        expiry: { ttlSeconds: 600 },
      });
      expect(narrower.keyParams).toEqual({ ip_whitelist: ['10.1.0.0/16'] });
    });

    it('refuses a document it cannot read with 400 naming the path, and fills wildcards from key_params', async () => {
      await expect(make(mainKey, { api: { billing_reed: {} } })).rejects.toMatchObject({
        code: 'bad_request',
        message: expect.stringMatching(
          /^Invalid request: permissions\.api\.billing_reed: unknown category/,
        ),
      });
      const wildcard = {
        api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: '{{group}}' } } } } },
      };
      await expect(make(mainKey, wildcard)).rejects.toMatchObject({ code: 'bad_request' });
      const { apiKey } = await make(mainKey, wildcard, { keyParams: { group: 7 } });
      expect(apiKey.keyParams).toEqual({ group: 7 });
      expect(apiKey.permissions).toEqual(
        (
          parsePermissionDocument({
            api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: 7 } } } } },
          }) as { permissions: Permissions }
        ).permissions,
      );
    });

    it('refuses an expiry in the past or within a minute', async () => {
      await expect(make(mainKey, null, { expiry: { ttlSeconds: 59 } })).rejects.toMatchObject({
        code: 'bad_request',
        message: 'Invalid request: ttl: the key must live at least 60 seconds',
      });
    });

    it('an expired key no longer authenticates', async () => {
      const { key } = await make(mainKey, null, { expiry: { ttlSeconds: 120 } });
      kit.clock.advance(120_000);
      await expect(principalOf(key)).rejects.toMatchObject({
        code: 'auth_invalid_key',
        message: 'This API key has expired.',
      });
    });
  });

  describe('delete', () => {
    it('deletes a key of the caller: it stops authenticating, the cache hears of it, the change is audited', async () => {
      const { key, apiKey } = await make(mainKey, ENDPOINT_42);
      await remove.execute({
        principal: await principalOf(mainKey),
        keyId: apiKey.id,
        origin: ORIGIN,
      });
      await expect(principalOf(key)).rejects.toMatchObject({ code: 'auth_invalid_key' });
      expect(kit.cache.changes).toContain(userId);
      expect(audit.changes.at(-1)).toMatchObject({ kind: 'deleted', keyId: apiKey.id });
    });

    it('refuses the main key, an unknown or foreign key, and a key broader than the caller', async () => {
      const principal = await principalOf(mainKey);
      const main = (await list.execute(principal)).find((key) => key.main)!;
      await expect(
        remove.execute({ principal, keyId: main.id, origin: ORIGIN }),
      ).rejects.toMatchObject({
        code: 'bad_request',
      });
      await expect(remove.execute({ principal, keyId: 999, origin: ORIGIN })).rejects.toMatchObject(
        {
          code: 'not_found',
          message: 'No API key 999.',
        },
      );
      const other = (await kit.users.create({ email: 'bob@example.test' })).id;
      const otherKey = await kit.issuer.issueApiKey(other);
      const otherId = (await kit.credentials.findByHash(kit.issuer.fingerprint(otherKey)))!.id;
      await expect(
        remove.execute({ principal, keyId: otherId, origin: ORIGIN }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
      const { apiKey: full } = await make(mainKey, null);
      const { key: scoped } = await make(mainKey, ENDPOINT_42);
      await expect(
        remove.execute({ principal: await principalOf(scoped), keyId: full.id, origin: ORIGIN }),
      ).rejects.toMatchObject({ code: 'permission_denied' });
      expect(audit.changes.filter((change) => change.kind === 'deleted')).toEqual([]);
    });
  });

  describe('reset', () => {
    it('replaces the main key: the old one stops at once, the new one is the main key', async () => {
      const principal = await principalOf(mainKey);
      const { key, apiKey } = await reset.execute({ principal, origin: ORIGIN });
      await expect(principalOf(mainKey)).rejects.toMatchObject({ code: 'auth_invalid_key' });
      expect((await principalOf(key)).permissions).toEqual(FULL_PERMISSIONS);
      const keys = await list.execute(await principalOf(key));
      expect(keys.filter((k) => k.main).map((k) => k.id)).toEqual([apiKey.id]);
      expect(kit.apiKeys.locked).toEqual([userId]);
      expect(kit.cache.changes).toContain(userId);
      expect(audit.changes.at(-1)).toMatchObject({
        kind: 'reset',
        keyId: apiKey.id,
        prefix: key.slice(0, 8),
      });
    });

    it('refuses a scoped key and a team-context key', async () => {
      const { key: scoped } = await make(mainKey, ENDPOINT_42);
      await expect(
        reset.execute({ principal: await principalOf(scoped), origin: ORIGIN }),
      ).rejects.toMatchObject({
        code: 'permission_denied',
        message:
          'Permission denied: a scoped key cannot reset the main key (use a full key or a session)',
      });
      const teamId = await kit.teams.create('engines');
      const teamKey = await kit.issuer.issueApiKey(userId, teamId);
      await expect(
        reset.execute({ principal: await principalOf(teamKey), origin: ORIGIN }),
      ).rejects.toMatchObject({
        code: 'permission_denied',
      });
      expect(await principalOf(mainKey)).toBeTruthy();
    });
  });
});
