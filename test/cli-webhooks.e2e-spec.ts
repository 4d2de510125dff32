import { DataSource } from 'typeorm';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { cliEnvFor, rawDocument, runCli, succeeded } from '@test/support/cli';
import { waitFor } from '@test/support/wait';
import { verifyGpumktWebhook, WebhookReceiver } from '@test/support/webhook-receiver';

/** `gpumkt webhooks ...` against the real api, its embedded worker and a loopback receiver. */
describe('gpumkt: webhooks', () => {
  let api: TestApi;
  let receiver: WebhookReceiver;
  let user: TestUser;
  let other: TestUser;

  const cli = (args: string[], caller: TestUser = user) =>
    runCli(args, { env: cliEnvFor(api.url, caller.apiKey) });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    api = await startApi({ WEBHOOK_BACKOFF_MS: '200' });
    user = await createTestUser(api);
    other = await createTestUser(api);
  });

  afterAll(async () => {
    await api.app
      .get(DataSource)
      .query(`DELETE FROM spend_guard_webhooks WHERE owner_key = ANY($1)`, [[user.id, other.id]]);
    await api.close();
    await receiver.close();
  });

  it('creates, lists, shows, tests, re-sends, rotates and deletes an endpoint', async () => {
    const url = receiver.url('/cli');
    const created = succeeded(
      await cli(['webhooks', 'create', url, '--description', 'from the cli']),
    );
    const [, id] = /^Webhook (wh_[A-Za-z0-9]+) created \(/.exec(created.stdout)!;
    const secret = /^(whsec_[A-Za-z0-9_-]{43})$/m.exec(created.stdout)![1];
    expect(created.stdout).toContain('Store the signing secret now');

    const listed = succeeded(await cli(['webhooks', 'list'])).stdout;
    expect(listed).toMatch(/^id\s+url\s+events\s+description\s+created/);
    expect(listed).toContain(id);
    expect(listed).toContain('budget.threshold_crossed,webhook.test');
    expect(listed).not.toContain(secret);

    const shown = succeeded(await cli(['webhooks', 'show', id])).stdout;
    expect(shown).toContain(`url          ${url}`);
    expect(shown).toContain('description  from the cli');

    const tested = succeeded(await cli(['webhooks', 'test', id])).stdout;
    expect(tested).toMatch(/^A webhook\.test event queued: delivery [0-9a-f-]{36} of event evt_/);
    const [received] = await waitFor(
      () => receiver.at('/cli'),
      (list) => list.length === 1,
      { what: 'the test event' },
    );
    expect(verifyGpumktWebhook(secret, received.headers, received.rawBody)).toBe(true);
    const deliveryId = String(received.headers['gpumkt-webhook-id']);
    const log = await waitFor(
      async () => succeeded(await cli(['webhooks', 'deliveries', id])).stdout,
      (text) => text.includes('succeeded'),
      { what: 'the delivery log to show the success' },
    );
    expect(log).toMatch(
      new RegExp(`${deliveryId}\\s+evt_\\S+\\s+webhook\\.test\\s+succeeded\\s+1\\s+204`),
    );

    const resent = succeeded(await cli(['webhooks', 'resend', id, deliveryId])).stdout;
    expect(resent).toMatch(/^A re-send queued: delivery /);
    await waitFor(
      () => receiver.at('/cli'),
      (list) => list.length === 2,
      { what: 'the re-sent event' },
    );
    expect(receiver.at('/cli')[1].rawBody).toBe(received.rawBody);

    const rotated = succeeded(await cli(['webhooks', 'rotate-secret', id])).stdout;
    expect(rotated).toContain(`Webhook ${id} has a new secret`);
    expect(rotated).not.toContain(secret);

    const raw = rawDocument<{ webhooks: { id: string }[] }>(
      succeeded(await cli(['--raw', 'webhooks', 'list'])),
    );
    expect(raw.webhooks.map((webhook) => webhook.id)).toEqual([id]);

    expect(succeeded(await cli(['webhooks', 'delete', id])).stdout).toBe(
      `Webhook ${id} deleted, with its delivery log.\n`,
    );
    expect(succeeded(await cli(['webhooks', 'list'])).stdout).toBe('No webhooks.\n');
  });

  it("reports another owner's endpoint and the api's refusals with exit 1, usage mistakes with exit 2", async () => {
    const mine = rawDocument<{ webhook: { id: string } }>(
      succeeded(await cli(['--raw', 'webhooks', 'create', receiver.url('/mine')])),
    ).webhook.id;
    const stranger = await cli(['webhooks', 'show', mine], other);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('Error 404 not_found: no such webhook');

    const refused = await cli(['webhooks', 'create', 'http://u:p@127.0.0.1/']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('webhook_url_invalid: url must not contain credentials');

    const usage = await cli([
      'webhooks',
      'create',
      'http://127.0.0.1/',
      '--events',
      'budget.exceeded',
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Unknown event type 'budget.exceeded'");
    const missing = await cli(['webhooks', 'resend', mine]);
    expect(missing.code).toBe(2);
  });
});
