import { OutboxReader } from '@app/messaging';
import { createTestUser, startApi, TestApi } from '@test/support/api';
import { cliEnvFor, rawDocument, runCli, succeeded } from '@test/support/cli';
import { waitFor } from '@test/support/wait';

/** `gpumkt team ...` against the real api: a team of two, a role, an invitation accepted. */
describe('gpumkt team', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const envFor = (key: string) => cliEnvFor(api.url, key);
  const ok = succeeded;

  it('creates a team, a role, invites a member who accepts with their own key, and lists them', async () => {
    const owner = await createTestUser(api, { credit: 10 });
    const ada = await createTestUser(api);
    const created = ok(
      await runCli(['team', 'create', '--name', 'engines', '--transfer-credit', '4'], {
        env: envFor(owner.apiKey),
      }),
    );
    expect(created.stdout).toMatch(/^Team \d+ \(engines\) created, credit 4; the key you ran this with now acts in the team\.$/m);
    expect(created.stdout).toMatch(/^gmk_[0-9A-Za-z]{43}$/m);
    const teamEnv = envFor(owner.apiKey);
    ok(await runCli(['team', 'role', 'create', '--name', 'billing-reader', '--allow', 'billing_read', 'team_read'], { env: teamEnv }));
    const roles = ok(await runCli(['team', 'roles'], { env: teamEnv }));
    expect(roles.stdout).toMatch(/billing-reader\s+billing_read, team_read/);
    ok(await runCli(['team', 'invite', '--email', ada.email, '--role', 'billing-reader'], { env: teamEnv }));
    const pending = rawDocument<Array<{ email: string }>>(
      ok(await runCli(['team', 'invitations', '--raw'], { env: envFor(ada.apiKey) })),
    );
    expect(pending.map((invitation) => invitation.email)).toEqual([ada.email]);
    const mail = await waitFor(
      () => api.app.get(OutboxReader).list(ada.email, 10, 'notice'),
      (mails) => mails.some((m) => /gmi_/.test(m.body)),
      { what: 'the invitation mail' },
    );
    const token = /gpumkt team accept (gmi_[0-9A-Za-z]+)/.exec(mail.find((m) => /gmi_/.test(m.body))!.body)![1];
    const joined = ok(await runCli(['team', 'accept', token], { env: envFor(ada.apiKey) }));
    expect(joined.stdout).toMatch(/^You joined engines as billing-reader\.$/m);
    const adaTeamKey = /^(gmk_[0-9A-Za-z]{43})$/m.exec(joined.stdout)![1];
    const members = ok(await runCli(['team', 'members'], { env: envFor(adaTeamKey) }));
    expect(members.stdout).toMatch(new RegExp(`${ada.email}.*billing-reader`));
    // The reader role cannot remove anyone.
    const refused = await runCli(['team', 'remove', String(owner.id)], { env: envFor(adaTeamKey) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('permission_denied');
  });
});
