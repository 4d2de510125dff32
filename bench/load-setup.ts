import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticator } from 'otplib';
import { Client, Pool } from 'pg';
import { log, runManage } from './processes';

/** Setup of the load benchmark's own database: a clean slate, a dataset and user pools. */

/** Drops the benchmark database so every run starts from the same state; the api recreates it. */
export async function resetDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^gpumarket_bench_[a-z0-9_]+$/.test(name))
    throw new Error(`refusing to drop ${name}: only gpumarket_bench_* databases are reset`);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function flushRedis(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

export interface TestUserSeed {
  id: number;
  email: string;
  apiKey: string;
}

export interface Fixtures {
  totpUsers: TestUserSeed[];
  volumesUser: TestUserSeed;
  listingIds: number[];
  groupsUser: TestUserSeed;
}

/** Fixture ids stay below 1,000,000 (generated ids start there, docs/fixtures.md). */
const TOTP_ID_BASE = 500_000;
const VOLUMES_USER_ID = 400_001;
const GROUPS_USER_ID = 400_002;
const LISTING_ID_BASE = 400_000;

/** Users with explicit API keys and owned volume listings, through `manage fixtures:load`. */
export async function loadFixtures(
  env: NodeJS.ProcessEnv,
  totpPool: number,
  listings: number,
): Promise<Fixtures> {
  const run = randomBytes(6).toString('hex');
  const user = (id: number, tag: string): TestUserSeed => ({
    id,
    email: `load-${tag}-${id}@bench.gpumarket.test`,
    apiKey: `load-${run}-${id}-${randomBytes(16).toString('hex')}`,
  });
  const totpUsers = Array.from({ length: totpPool }, (_, i) => user(TOTP_ID_BASE + i, 'totp'));
  const volumesUser = user(VOLUMES_USER_ID, 'volumes');
  const groupsUser = user(GROUPS_USER_ID, 'groups');
  const listingIds = Array.from({ length: listings }, (_, i) => LISTING_ID_BASE + i + 1);
  const document = {
    users: [...totpUsers, volumesUser, groupsUser].map((u) => ({
      id: u.id,
      email: u.email,
      verified: true,
      api_key: u.apiKey,
    })),
    volume_listings: listingIds.map((id, i) => ({
      id,
      owner_id: volumesUser.id,
      machine_id: 7000 + i,
      size_gb: 100,
      price_per_gb_month: 0.15,
      status: 'listed',
    })),
  };
  const file = join(tmpdir(), `gpumarket-load-fixtures-${run}.json`);
  await writeFile(file, JSON.stringify(document));
  try {
    await runManage(['fixtures:load', file], env);
  } finally {
    await rm(file, { force: true });
  }
  return { totpUsers, volumesUser, listingIds, groupsUser };
}

export interface JsonResponse {
  status: number;
  body: Record<string, unknown>;
}

/** One JSON request over a keep-alive agent; setup steps check the status themselves. */
export function jsonRequest(
  agent: Agent,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        agent,
        timeout: 30_000,
        headers: payload
          ? {
              ...headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            }
          : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(text) as Record<string, unknown>,
            });
          } catch {
            reject(
              new Error(
                `${method} ${url}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}`,
              ),
            );
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The current code of an authenticator app holding `secret` (RFC 6238, 30 s, 6 digits). */
export function totpNow(secret: string): string {
  return authenticator
    .clone({ epoch: Date.now(), step: 30, digits: 6, window: 0 })
    .generate(secret);
}

/** Polls the development outbox (a table) for the newest code sent to `to`; bounded. */
async function outboxCode(pool: Pool, to: string): Promise<string> {
  for (let i = 0; i < 200; i += 1) {
    const { rows } = await pool.query<{ body: string }>(
      `SELECT body FROM tfa_outbox_messages WHERE lower(recipient) = lower($1) ORDER BY id DESC LIMIT 1`,
      [to],
    );
    const match = rows[0] && /\b(\d{6})\b/.exec(rows[0].body);
    if (match) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no outbox message to ${to} within 5 s (is the delivery worker running?)`);
}

function expectOk(step: string, response: JsonResponse): JsonResponse {
  if (response.status !== 200)
    throw new Error(`${step}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
  return response;
}

/**
 * First-time TOTP setup of one user as a client does it: email authorization (code read
 * from the outbox), totp-setup, confirm-new. Returns the TOTP secret.
 */
async function enableTotp(
  agent: Agent,
  pool: Pool,
  base: string,
  user: TestUserSeed,
): Promise<string> {
  const auth = { Authorization: `Bearer ${user.apiKey}` };
  const start = expectOk(
    'authorize-new-method',
    await jsonRequest(agent, 'POST', `${base}/api/v0/tfa/authorize-new-method/`, auth, {
      tfa_method: 'email',
    }),
  );
  const code = await outboxCode(pool, user.email);
  expectOk(
    'authorize-new-method PUT',
    await jsonRequest(agent, 'PUT', `${base}/api/v0/tfa/authorize-new-method/`, auth, {
      secret: start.body.secret,
      code,
    }),
  );
  const setup = expectOk(
    'totp-setup',
    await jsonRequest(agent, 'POST', `${base}/api/v0/tfa/totp-setup/`, auth, {}),
  );
  const secret = setup.body.secret as string;
  expectOk(
    'confirm-new',
    await jsonRequest(agent, 'POST', `${base}/api/v0/tfa/confirm-new/`, auth, {
      tfa_method: 'totp',
      code: totpNow(secret),
      secret,
    }),
  );
  return secret;
}

/** Enables TOTP for every user of the pool, `parallel` at a time; returns the secrets in order. */
export async function enableTotpPool(
  pool: Pool,
  base: string,
  users: TestUserSeed[],
  parallel: number,
): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: parallel });
  const secrets: string[] = new Array(users.length);
  let next = 0;
  const started = Date.now();
  try {
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < users.length) {
          const index = next;
          next += 1;
          secrets[index] = await enableTotp(agent, pool, base, users[index]);
          if ((index + 1) % 500 === 0) log(`  TOTP enabled for ${index + 1}/${users.length} users`);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  log(`TOTP enabled for ${users.length} users in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return secrets;
}

/**
 * Lets every pool user's current TOTP code be accepted again, as if 30 s had passed
 * (RFC 6238 replay protection refuses a second code in the same step). Run before each
 * measured TOTP login run, so a run never meets a method already used in its step.
 */
export async function forgetTotpUse(pool: Pool, userIds: number[]): Promise<void> {
  // The spent step lives on the method, failures and lockouts in the verification ledger.
  await pool.query(
    `WITH steps AS (
       UPDATE tfa_methods SET last_totp_step = NULL WHERE user_id = ANY($1::int[]))
     DELETE FROM tfa_verification_failures WHERE user_id = ANY($1::int[])`,
    [userIds],
  );
}
