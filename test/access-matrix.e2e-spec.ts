import { AccessCatalog, PERMISSION_CATEGORIES, PermissionCategory } from '@app/platform';
import { categories, createKey, CreatedKey } from '@test/support/access';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';

/** One day of charges, as the public client encodes the report's filter. */
const DAY_FILTER =
  'select_filters=%7B%22day%22%3A+%7B%22gte%22%3A+1767225600%2C+%22lte%22%3A+1767312000%7D%7D';
/** One request to a route, made with the key under test. */
interface Sample {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  body?: unknown;
}

/** A key of the same user this route's request may need (a key to show or delete). */
type SampleOf = (context: {
  user: TestUser;
  throwaway: () => Promise<CreatedKey>;
}) => Promise<Sample>;

const get =
  (path: string): SampleOf =>
  async () => ({ method: 'get', path });
const send =
  (method: Sample['method'], path: string, body: unknown = {}): SampleOf =>
  async () => ({ method, path, body });

/**
 * A request for every route of the api, by its permission name. The table must name every
 * route the api serves (the first test fails otherwise), so a new route joins the matrix.
 */
const SAMPLES: Record<string, SampleOf> = {
  'api.user.show': get('/api/v0/users/current/'),
  'api.user.update': send('put', '/api/v0/users/', { balance_threshold_enabled: false }),
  'api.user.logout': send('post', '/api/v0/users/logout/'),
  'api.charges.show': get(`/api/v0/charges/?${DAY_FILTER}`),
  'api.charges.summary': get(`/api/v0/charges/summary/?${DAY_FILTER}`),
  'api.charges.export': get(`/api/v0/charges/export/?${DAY_FILTER}`),
  'api.tfa.status': get('/api/v0/tfa/status/'),
  'api.tfa.login': send('post', '/api/v0/tfa/', { code: '000000', tfa_method: 'totp' }),
  'api.tfa.delete': send('delete', '/api/v0/tfa/', { code: '000000', tfa_method: 'totp' }),
  'api.tfa.email': send('post', '/api/v0/tfa/email/'),
  'api.tfa.sms': send('post', '/api/v0/tfa/sms/'),
  'api.tfa.sms_resend': send('post', '/api/v0/tfa/sms/resend/', { secret: 'none' }),
  'api.tfa.totp_setup': send('post', '/api/v0/tfa/totp-setup/'),
  'api.tfa.authorize_new_method': send('post', '/api/v0/tfa/authorize-new-method/', {
    tfa_method: 'totp',
  }),
  'api.tfa.authorize_new_method_confirm': send('put', '/api/v0/tfa/authorize-new-method/', {
    secret: 'none',
    code: '000000',
  }),
  'api.tfa.confirm_new': send('post', '/api/v0/tfa/confirm-new/', {
    secret: 'none',
    code: '000000',
    tfa_method: 'totp',
  }),
  'api.tfa.update': send('put', '/api/v0/tfa/update/', { tfa_method_id: 1, label: 'x' }),
  'api.tfa.regen_backup_codes': send('put', '/api/v0/tfa/regen-backup-codes/', {
    code: '000000',
    tfa_method: 'totp',
  }),
  'api.tfa.test': send('post', '/api/v0/tfa/test/'),
  'api.tfa.test_submit': send('post', '/api/v0/tfa/test-submit/', { secret: 'none', code: '0' }),
  'api.tfa.resend': send('post', '/api/v0/tfa/resend/', { secret: 'none' }),
  'api.tfa.events': get('/api/v0/tfa/events/'),
  'api.tfa.devices': get('/api/v0/tfa/devices/'),
  'api.tfa.device_revoke': send('delete', '/api/v0/tfa/devices/999999/'),
  'api.volumes.unlist': send('post', '/api/v0/volumes/unlist/', { id: 999999 }),
  'api.endptjobs.create': send('post', '/api/v0/endptjobs/', { endpoint_name: 'matrix' }),
  'api.endptjobs.list': get('/api/v0/endptjobs/'),
  'api.endptjobs.update': send('put', '/api/v0/endptjobs/999999/', { max_workers: 3 }),
  'api.endptjobs.delete': send('delete', '/api/v0/endptjobs/999999/'),
  'api.apikeys.create': send('post', '/api/v0/auth/apikeys/', {
    name: 'matrix',
    permissions: categories('user_write'),
  }),
  'api.apikeys.list': get('/api/v0/auth/apikeys/'),
  'api.apikeys.show': async ({ throwaway }) => ({
    method: 'get',
    path: `/api/v0/auth/apikeys/${(await throwaway()).id}/`,
  }),
  'api.apikeys.delete': async ({ throwaway }) => ({
    method: 'delete',
    path: `/api/v0/auth/apikeys/${(await throwaway()).id}/`,
    body: {},
  }),
  'api.apikeys.reset': send('put', '/api/v0/commands/reset_apikey/', { client_id: 'me' }),
  'api.sessions.list': get('/api/v0/auth/sessions/'),
  'api.sessions.delete': send('delete', '/api/v0/auth/sessions/', { all: true }),
  'api.audit_logs.list': get('/api/v0/audit_logs/'),
  'api.team.create': send('post', '/api/v0/team/', { team_name: 'matrix' }),
  'api.team.destroy': send('delete', '/api/v0/team/'),
  'api.team.update': send('put', '/api/v0/team/', { require_tfa: false }),
  'api.team.members.list': get('/api/v0/team/members/'),
  'api.team.members.remove': send('delete', '/api/v0/team/members/999999/'),
  'api.team.members.update': send('put', '/api/v0/team/members/999999/', { role: 'member' }),
  'api.team.roles.create': send('post', '/api/v0/team/roles/', {
    name: 'matrix',
    permissions: { api: { billing_read: {} } },
  }),
  'api.team.roles.list': get('/api/v0/team/roles-full/'),
  'api.team.roles.show': get('/api/v0/team/roles/matrix-role/'),
  'api.team.roles.update': send('put', '/api/v0/team/roles/999999/', { name: 'renamed' }),
  'api.team.roles.delete': send('delete', '/api/v0/team/roles/matrix-role/'),
  'api.team.invite': send('post', '/api/v0/team/invite/?email=matrix%40example.test&role=member'),
  'api.team.invitations.list': get('/api/v0/team/invitations/'),
  'api.team.invitations.revoke': send('delete', '/api/v0/team/invitations/999999/'),
  'api.team.invitations.accept': send('post', '/api/v0/team/accept/', { token: 'gmi_matrix' }),
  'api.team.invitations.decline': send('post', '/api/v0/team/decline/', { token: 'gmi_matrix' }),
  'api.team.apikeys.create': send('post', '/api/v0/team/999999/apikeys/', {}),
  'api.budgets.create': send('post', '/api/v0/budgets/', {
    name: 'matrix',
    amount: 1,
    period: 'day',
  }),
  'api.budgets.list': get('/api/v0/budgets/'),
  'api.budgets.show': get('/api/v0/budgets/999999/'),
  'api.budgets.update': send('put', '/api/v0/budgets/999999/', { name: 'matrix' }),
  'api.budgets.delete': send('delete', '/api/v0/budgets/999999/'),
  'api.budgets.alerts': get('/api/v0/budgets/999999/alerts/'),
  'api.webhooks.create': send('post', '/api/v0/webhooks/', { url: 'http://127.0.0.1:9/matrix' }),
  'api.webhooks.list': get('/api/v0/webhooks/'),
  'api.webhooks.show': get('/api/v0/webhooks/wh_matrix/'),
  'api.webhooks.delete': send('delete', '/api/v0/webhooks/wh_matrix/'),
  'api.webhooks.rotate_secret': send('post', '/api/v0/webhooks/wh_matrix/rotate_secret/'),
  'api.webhooks.test': send('post', '/api/v0/webhooks/wh_matrix/test/'),
  'api.webhooks.deliveries': get('/api/v0/webhooks/wh_matrix/deliveries/'),
  'api.webhooks.resend': send(
    'post',
    '/api/v0/webhooks/wh_matrix/deliveries/00000000-0000-0000-0000-000000000000/resend/',
  ),
};

/**
 * Where a scoped key that has the route's category is still refused by the route's own
 * rule, the refusal it gets; every other such request gets past the guard.
 */
const REFUSED_WITH_CATEGORY: Record<string, string> = {
  'api.apikeys.reset':
    'Permission denied: a scoped key cannot reset the main key (use a full key or a session)',
  'api.team.apikeys.create':
    'Permission denied: a scoped key cannot make a team key (use a full key or a session)',
};

describe('access matrix: every route x (full key, scoped key with its category, scoped key without)', () => {
  let api: TestApi;
  let routes: Array<{ route: string; category: PermissionCategory; method: string; path: string }>;

  beforeAll(async () => {
    api = await startApi();
    routes = [...api.app.get(AccessCatalog).entries()];
  });
  afterAll(() => api.close());

  it('has a request for every route the api serves, and only for those', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(routes.map((entry) => entry.route).sort());
  });

  it('the three keys: full gets past the guard, the category alone gets past it, without it 403 permission_denied', async () => {
    const outcomes: string[] = [];
    for (const { route, category, method, path } of routes) {
      const user = await createTestUser(api);
      const others = PERMISSION_CATEGORIES.filter((other) => other !== category);
      const keys = {
        full: await createKey(api, user, { name: 'full' }),
        with: await createKey(api, user, { name: 'with', permissions: categories(category) }),
        without: await createKey(api, user, {
          name: 'without',
          permissions: categories(...others),
        }),
      };
      // A key to show or delete: within every key above (user_write alone).
      const throwaway = () =>
        createKey(api, user, { name: 'throwaway', permissions: categories('user_write') });
      for (const [name, key] of Object.entries(keys)) {
        const sample = await SAMPLES[route]({ user, throwaway });
        expect(
          `${sample.method.toUpperCase()} ${sample.path
            .split('?')[0]
            .replace(/\/roles\/(\d{6,}|matrix-role)\//, '/roles/{role}/')
            .replace(/\/team\/\d{6,}\/apikeys\//, '/team/{team_id}/apikeys/')
            .replace('/webhooks/wh_matrix/', '/webhooks/{id}/')
            .replace(/\/deliveries\/[0-9a-f-]{36}\//, '/deliveries/{deliveryId}/')
            .replace(/\d{6,}/g, '{id}')}`,
        ).toBe(`${method} ${path}`);
        const call = api.http()[sample.method](sample.path).set(key.auth);
        const response =
          sample.method === 'get'
            ? await call
            : await call
                .set('Content-Type', 'application/json')
                .send(JSON.stringify(sample.body ?? {}));
        const denied = response.status === 403 && response.body.error === 'permission_denied';
        outcomes.push(`${route} ${name}: ${response.status}${denied ? ' denied' : ''}`);
        if (name === 'without') {
          expect({ route, status: response.status, body: response.body }).toEqual({
            route,
            status: 403,
            body: {
              success: false,
              error: 'permission_denied',
              msg: `Permission denied: this key lacks ${category}`,
            },
          });
        } else if (name === 'with' && REFUSED_WITH_CATEGORY[route]) {
          expect({ route, status: response.status, msg: response.body.msg }).toEqual({
            route,
            status: 403,
            msg: REFUSED_WITH_CATEGORY[route],
          });
        } else {
          expect({ route, name, denied, status: response.status < 500 }).toEqual({
            route,
            name,
            denied: false,
            status: true,
          });
        }
      }
    }
    // Each route was asked three times.
    expect(outcomes).toHaveLength(routes.length * 3);
  });
});
