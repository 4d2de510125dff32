/**
 * The bare-Node side of the charges benchmarks: the charges report served by plain
 * `node:http` + `pg`, with no framework, no middleware, no guards, no rate limit and no
 * logging, so that comparing the api with it measures everything the framework and its
 * pipeline add around the product's own work.
 *
 * The product's own work is reused, never re-written: the query parser
 * (charges.request.ts), the use case with its cursor codec (GetChargesReportUseCase,
 * PageCursorCodec: same signed next_token), the reader and its statements
 * (PostgresChargeReportReader, charge-report.sql.ts, run as named statements when
 * DATABASE_PREPARED_STATEMENTS says so, as the api runs them) and the presenter. It serves
 * every page the endpoint serves (table and tree, any limit, any day range, and later
 * pages from the api's own next_token, signed with the same SECRET_HMAC_KEY), and answers
 * the same bytes: `npm run bench:charges` checks that before measuring.
 *
 * Who is asking: with an `Authorization: Bearer <key>` header, the key is resolved the way
 * the api's cheapest path resolves it (AuthenticateBearerUseCase on a cache hit): its
 * fingerprint under the configured SECRET_HMAC_KEY, then an in-process cache of the key's
 * owner, filled from api_keys on the key's first use (never invalidated: the benchmark
 * neither revokes nor changes keys). Without the header, BASELINE_USER_ID when it is set
 * (the mode of `npm run bench`, which measures the page without authentication), else 401.
 *
 * Environment: the api's (DATABASE_URL, SECRET_HMAC_KEY, DATABASE_PREPARED_STATEMENTS, read
 * by the platform's own configuration loader, so tokens and fingerprints match the api's
 * under the same environment), BASELINE_USER_ID (optional, see above), PORT (0: any),
 * DATABASE_POOL_MAX (20; `npm run bench:charges` passes the api's). Prints
 * `{"msg": "baseline listening", "port": N}` once it listens.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool, QueryResultRow } from 'pg';
import {
  DomainError,
  Environment,
  LagTolerantReads,
  loadPlatformConfig,
  ReplicaState,
  SecretKeeper,
  StatementOptions,
  statementConfig,
} from '@app/platform';
import { bearerToken } from '@app/platform/http/bearer-token';
import { NodeSecretKeeper } from '@app/platform/infrastructure/crypto/node-crypto.adapters';
import { CREDENTIAL_FINGERPRINT } from '@app/accounts/application/credentials/credential-issuer.service';
import { GetChargesReportUseCase } from '@app/billing/application/get-charges-report.use-case';
import { ChargeOwner } from '@app/billing/domain/contract';
import { presentChargePage } from '@app/billing/http/charge-page.presenter';
import { parseChargeQuery } from '@app/billing/http/charges.request';
import { PostgresChargeReportReader } from '@app/billing/infrastructure/persistence/postgres-charge-report.reader';

/**
 * The api's reads when it has no replica: every statement on the primary, named when the
 * statement asks for it and DATABASE_PREPARED_STATEMENTS allows it (the same statementConfig).
 */
class PrimaryReads extends LagTolerantReads {
  constructor(
    private readonly pool: Pool,
    private readonly prepared: boolean,
  ) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async rows<Row>(
    sql: string,
    params: readonly unknown[] = [],
    options: StatementOptions = {},
  ): Promise<Row[]> {
    const prepare = this.prepared && options.prepare === true;
    const result = await this.pool.query<QueryResultRow>(statementConfig(sql, params, prepare));
    return result.rows as Row[];
  }

  async replicaState(): Promise<ReplicaState> {
    return { status: 'none' };
  }
}

/**
 * Owners of the API keys seen so far, by fingerprint: what the api's credential cache
 * holds on a hit, without its invalidation (the benchmark never changes a key). Keys made
 * under an older SECRET_HMAC_KEY are looked up under every fingerprint, as the api does.
 */
class BearerOwners {
  private readonly owners = new Map<string, ChargeOwner>();

  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretKeeper,
  ) {}

  async ownerOf(key: string): Promise<ChargeOwner | null> {
    const fingerprints = this.secrets.fingerprints(CREDENTIAL_FINGERPRINT, key);
    return this.owners.get(fingerprints[0]) ?? this.lookUp(fingerprints);
  }

  private async lookUp(fingerprints: string[]): Promise<ChargeOwner | null> {
    const { rows } = await this.pool.query<{ user_id: number; team_id: number | null }>(
      `SELECT user_id, team_id FROM api_keys
        WHERE key_hash = ANY($1) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        LIMIT 1`,
      [fingerprints],
    );
    if (!rows[0]) return null;
    const owner = { userId: rows[0].user_id, teamId: rows[0].team_id };
    this.owners.set(fingerprints[0], owner);
    return owner;
  }
}

const config = loadPlatformConfig(new Environment());
const pool = new Pool({
  connectionString: config.databaseUrl,
  max: Number(process.env.DATABASE_POOL_MAX ?? 20),
});
const secrets = new NodeSecretKeeper(config.hmacKeys, config.encryptionKeys);
const report = new GetChargesReportUseCase(
  new PostgresChargeReportReader(new PrimaryReads(pool, config.databasePreparedStatements)),
  secrets,
);
const bearerOwners = new BearerOwners(pool, secrets);
const unauthenticatedUser = process.env.BASELINE_USER_ID
  ? Number(process.env.BASELINE_USER_ID)
  : null;
if (
  unauthenticatedUser !== null &&
  !(Number.isInteger(unauthenticatedUser) && unauthenticatedUser > 0)
) {
  console.error('BASELINE_USER_ID must be a user id');
  process.exit(1);
}

async function ownerOfRequest(req: IncomingMessage): Promise<ChargeOwner | null> {
  const header = req.headers.authorization;
  if (header === undefined && unauthenticatedUser !== null)
    return { userId: unauthenticatedUser, teamId: null };
  const key = header === undefined ? undefined : bearerToken(header);
  return key ? bearerOwners.ownerOf(key) : null;
}

interface Answer {
  status: number;
  body: unknown;
}

async function chargesPage(req: IncomingMessage, url: URL): Promise<Answer> {
  const owner = await ownerOfRequest(req);
  if (!owner) return { status: 401, body: { success: false, msg: 'Invalid user key' } };
  // Express hands the parser the form-decoded parameters; URLSearchParams decodes alike.
  const query = parseChargeQuery(Object.fromEntries(url.searchParams));
  return { status: 200, body: presentChargePage(await report.execute(owner, query)) };
}

function failure(error: unknown): Answer {
  // A refused query or token is the caller's mistake; anything else is the server's.
  if (error instanceof DomainError)
    return { status: 400, body: { success: false, error: error.code, msg: error.message } };
  return { status: 500, body: { success: false, msg: (error as Error).message } };
}

/** JSON.stringify, as Express's res.json writes the api's body (no spaces, no replacer). */
function send(res: ServerResponse, { status, body }: Answer): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET' || !/^\/api\/v0\/charges\/?$/.test(url.pathname))
    return send(res, {
      status: 404,
      body: { success: false, error: 'not_found', msg: 'Not found' },
    });
  chargesPage(req, url).then(
    (answer) => send(res, answer),
    (error: unknown) => send(res, failure(error)),
  );
});
server.keepAliveTimeout = 65_000;

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ msg: 'baseline listening', port })}\n`);
});

function shutdown(): void {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
}
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
