import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ConfigError, Environment, loadPlatformConfig } from '@app/platform';
import { loadSmsAntiFraudSettings } from '@app/identity-tfa/infrastructure/anti-fraud/sms-anti-fraud-settings';
import { loadDeliverySettings } from '@app/identity-tfa/infrastructure/delivery-providers/delivery-settings';
import { loadTfaSettings } from '@app/identity-tfa/infrastructure/tfa-config';
import { DIST, ROOT, runManage, spawnApi } from '@test/support/api';
import {
  ComposeFile,
  ComposeService,
  environmentOf,
  interpolate,
  InterpolationError,
  renderCompose,
} from '@test/support/compose';
import { spawnWorker } from '@test/support/delivery';
import { OwnRedis } from '@test/support/own-redis';
import { TEST_DATABASE_URL } from '@test/support/test-env';

const COMPOSE_FILE = join(ROOT, 'docker/compose.yml');

/** What an operator must provide (the file names each with `${VAR:?...}`). */
const REQUIRED = {
  SECRET_HMAC_KEY: 'k'.repeat(40),
  ENCRYPTION_KEYS: `1:${Buffer.alloc(32, 9).toString('base64')}`,
  TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  TWILIO_AUTH_TOKEN: 'twilio-token',
  SMTP_HOST: 'smtp.example.com',
  SMTP_FROM: 'GPU Marketplace <no-reply@example.com>',
};
/** Twilio needs exactly one sender; the operator picks which (the api names both if neither). */
const ONE_OF = ['TWILIO_FROM', 'TWILIO_MESSAGING_SERVICE_SID'];
const OPTIONAL = { TWILIO_MESSAGING_SERVICE_SID: 'MG0123456789abcdef0123456789abcdef' };

/** The compose file rendered with only `settings` as the operator's environment. */
function render(settings: Record<string, string>): ComposeFile {
  return renderCompose(COMPOSE_FILE, settings);
}

/** Every configuration the api and the worker load at boot; throws ConfigError on a problem. */
function loadEveryConfig(env: Record<string, string>): void {
  const environment = new Environment(env);
  loadPlatformConfig(environment);
  loadTfaSettings(environment);
  loadDeliverySettings(environment);
  loadSmsAntiFraudSettings(environment);
}

function refuses(env: Record<string, string>): boolean {
  try {
    loadEveryConfig(env);
    return false;
  } catch (error) {
    if (error instanceof ConfigError) return true;
    throw error;
  }
}

/**
 * What differs on this machine: the compose network's host names do not resolve here.
 * Redis is a private server: the production worker started below must not take the
 * delivery jobs of other test files from the shared test index.
 */
function localServices(redis: OwnRedis) {
  return { DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: redis.url, PORT: '0', HOST: '127.0.0.1' };
}

/** What a deployment relies on in docker/, checked without Docker tooling or an engine. */
describe('deployment files', () => {
  const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const operator = { ...REQUIRED, ...OPTIONAL };

  it('builds a final stage with production dependencies only, as a non-root user, with a health check', () => {
    expect(finalStage).toMatch(/npm ci --omit=dev/);
    expect(finalStage).toMatch(/^USER (?!root)\w+/m);
    expect(finalStage).toMatch(/^HEALTHCHECK [^\n]*\\\n[^\n]*\/health\/ready/m);
    expect(finalStage).toMatch(/NODE_ENV=production/);
    for (const entry of [
      'dist/apps/api/src/main.js',
      'dist/apps/worker/src/main.js',
      'dist/apps/cli/src/main.js',
    ]) {
      expect(dockerfile).toContain(entry);
    }
  });

  it('interpolates variables as the Compose specification says', () => {
    const env = { SET: 'v', EMPTY: '' };
    expect(interpolate('$SET ${SET} $$SET ${UNSET} ${EMPTY:-d} ${EMPTY-d}', env)).toBe(
      'v v $SET  d ',
    );
    expect(interpolate('${UNSET:-${SET}x} ${SET:+alt} ${UNSET+alt}', env)).toBe('vx alt ');
    expect(interpolate('${EMPTY?m}', env)).toBe('');
    expect(() => interpolate('${EMPTY:?say why}', env)).toThrow(
      'required variable EMPTY is missing a value: say why',
    );
    expect(() => interpolate('${SET', env)).toThrow('unclosed');
  });

  it('has a compose file that follows the Compose specification once the operator settings are given', () => {
    const compose = render(operator);
    expect(Object.keys(compose.services).sort()).toEqual([
      'api',
      'migrate',
      'postgres',
      'redis',
      'worker',
    ]);
  });

  it('has a schema check that catches a misspelt key', () => {
    const text = readFileSync(COMPOSE_FILE, 'utf8').replace(
      'stop_grace_period: 30s',
      'stop_grace_periode: 30s',
    );
    const copy = join(tmpdir(), `compose-${process.pid}.yml`);
    writeFileSync(copy, text);
    try {
      expect(() => renderCompose(copy, operator)).toThrow(/must NOT have additional properties/);
    } finally {
      rmSync(copy, { force: true });
    }
  });

  it.each(Object.keys(REQUIRED))('refuses to render without %s, naming it', (name) => {
    const settings: Record<string, string> = { ...operator };
    delete settings[name];
    let refusal: unknown;
    try {
      render(settings);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InterpolationError);
    expect((refusal as InterpolationError).missing.map((m) => m.name)).toEqual([name]);
    expect((refusal as Error).message).toContain(name);
  });

  it('gives the api and the worker every setting they require in production, fixed or demanded from the operator', () => {
    const compose = render(operator);
    const raw = renderCompose(
      COMPOSE_FILE,
      new Proxy({}, { get: (_, name) => `\${${String(name)}}` }),
    );
    for (const name of ['migrate', 'api', 'worker']) {
      const env = environmentOf(compose.services[name]);
      expect(env.NODE_ENV).toBe('production');
      expect(() => loadEveryConfig(env)).not.toThrow();
      const rawEnv = environmentOf(raw.services[name]);
      for (const variable of Object.keys(env)) {
        const without = { ...env };
        delete without[variable];
        if (!refuses(without) || ONE_OF.includes(variable)) continue;
        // Required by the api: either the compose file fixes it, or it refuses to render without it.
        const fixed = !rawEnv[variable].includes('${');
        expect({ variable, fixedOrDemanded: fixed || variable in REQUIRED }).toEqual({
          variable,
          fixedOrDemanded: true,
        });
      }
      const neither = { ...env };
      for (const variable of ONE_OF) delete neither[variable];
      expect(refuses(neither)).toBe(true);
    }
  });

  it('wires services, images, commands and health checks consistently', () => {
    const { services } = render(operator);
    const api = services.api;
    const app = ['migrate', 'api', 'worker'];
    for (const name of app) {
      expect(services[name].build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
      expect(environmentOf(services[name])).toMatchObject({
        DATABASE_URL: 'postgres://postgres:postgres@postgres:5432/gpumarket',
        REDIS_URL: 'redis://redis:6379',
      });
    }
    // The database URL names the postgres service, its password and its database.
    expect(services.postgres.image).toBe('postgres:15');
    expect(environmentOf(services.postgres)).toMatchObject({
      POSTGRES_PASSWORD: 'postgres',
      POSTGRES_DB: 'gpumarket',
    });
    expect(services.redis.image).toBe('redis:7');
    expect(services.redis.command).toEqual(['redis-server', '--appendonly', 'yes']);

    // Every command runs an entry point that the build produces and the image contains.
    const commands = {
      migrate: ['node', 'dist/apps/manage/src/main.js', 'migration:run'],
      worker: ['node', 'dist/apps/worker/src/main.js'],
    };
    expect(services.migrate.command).toEqual(commands.migrate);
    expect(services.worker.command).toEqual(commands.worker);
    expect(api.command).toBeUndefined(); // the image's CMD: the api
    expect(dockerfile).toContain('CMD ["node", "dist/apps/api/src/main.js"]');
    for (const command of Object.values(commands)) {
      expect(existsSync(join(DIST, command[1].replace(/^dist\//, '')))).toBe(true);
    }

    // Dependencies name existing services; waiting for health needs a health check there,
    // waiting for completion needs a one-shot service.
    for (const [name, service] of Object.entries(services)) {
      for (const [target, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, target, exists: target in services }).toEqual({
          name,
          target,
          exists: true,
        });
        if (condition === 'service_healthy') {
          expect(services[target].healthcheck?.test).toBeDefined();
          expect(services[target].healthcheck?.disable).not.toBe(true);
        }
        if (condition === 'service_completed_successfully')
          expect(services[target].restart).toBe('no');
      }
    }
    expect(api.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' } });
    expect(services.worker.depends_on).toEqual(api.depends_on);

    // The image's HEALTHCHECK probes HTTP: the api serves it on the published port; the
    // worker serves no HTTP, so its copy of the check is disabled.
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m);
    expect(api.ports).toEqual(['3000:3000']);
    expect(environmentOf(api).PORT).toBeUndefined();
    expect(api.healthcheck?.disable).not.toBe(true);
    expect(services.worker.healthcheck).toEqual({ disable: true });
  });

  it('renders a production configuration that the release step, the api and the worker accept', async () => {
    const { services } = render(operator);
    const redis = await OwnRedis.start();
    const LOCAL_SERVICES = localServices(redis);
    try {
      expect(environmentOf(services.api)).toMatchObject({
        NODE_ENV: 'production',
        MIGRATIONS_RUN: 'false',
        RUN_WORKER: 'false',
      });

      // The release step: migrations run by their own service before the api starts.
      const migrate = await runManage(['migration:run'], {
        ...environmentOf(services.migrate),
        ...LOCAL_SERVICES,
      });
      expect(migrate.stderr).toBe('');
      expect(migrate.code).toBe(0);

      const api = await spawnApi({ ...environmentOf(services.api), ...LOCAL_SERVICES });
      try {
        expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
      } finally {
        // SIGINT: no load balancer to wait for here.
        expect(await api.stop('SIGINT')).toBe(0);
      }

      const worker = await spawnWorker({ ...environmentOf(services.worker), ...LOCAL_SERVICES });
      await worker.kill('SIGTERM');
      expect(worker.child.exitCode).toBe(0);
    } finally {
      await redis.stop();
    }
  }, 120_000);
});

/**
 * The scaled-out topology (docs/operations.md): docker/compose.scale.yml and the
 * Kubernetes manifests, read as YAML (no Docker or cluster needed).
 */
describe('scaled-out deployment files', () => {
  const scaleCompose = parseAllDocuments(
    readFileSync(join(ROOT, 'docker/compose.scale.yml'), 'utf8'),
    { merge: true },
  )[0].toJS() as {
    services: Record<string, ComposeService & { deploy?: { replicas?: number } }>;
  };
  /** ${NAME:?...} and ${NAME:-default} as compose fills them in from `env`. */
  const interpolate = (value: string, env: Record<string, string>) =>
    value.replace(/\$\{(\w+)(?::[?-]([^}]*))?\}/g, (_all, name: string, fallback?: string) =>
      name in env ? env[name] : value.includes(`${name}:-`) ? (fallback ?? '') : '',
    );
  const appEnv = (service: string) =>
    Object.fromEntries(
      Object.entries(environmentOf(scaleCompose.services[service])).map(([name, value]) => [
        name,
        interpolate(value, { ...REQUIRED, ...OPTIONAL }),
      ]),
    );

  it('runs several api replicas and workers on a Redis Cluster and a PostgreSQL replica', () => {
    const { services } = scaleCompose;
    expect(services.api.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.worker.deploy?.replicas).toBeGreaterThanOrEqual(2);
    for (const service of ['api', 'worker']) {
      const env = appEnv(service);
      const nodes = env.REDIS_CLUSTER_NODES.split(',').map((node) => node.split(':')[0]);
      expect(nodes).toHaveLength(3);
      for (const node of nodes) expect(services[node]).toBeDefined();
      expect(services[new URL(env.DATABASE_REPLICA_URL).hostname]).toBeDefined();
      expect(services[new URL(env.DATABASE_URL).hostname]).toBeDefined();
      // The same secrets everywhere: both come from the one shared block.
      expect(env.SECRET_HMAC_KEY).toBe(REQUIRED.SECRET_HMAC_KEY);
      expect(env.ENCRYPTION_KEYS).toBe(REQUIRED.ENCRYPTION_KEYS);
    }
    // Migrations hold a session-level advisory lock: never through the transaction pooler.
    expect(new URL(appEnv('migrate').DATABASE_URL).hostname).toBe('postgres-primary');
  });

  it('gives settings the service accepts in production', () => {
    for (const service of ['api', 'worker', 'migrate']) {
      const config = loadPlatformConfig(new Environment(appEnv(service)));
      expect(config.redis.mode).toBe('cluster');
      expect(config.databaseReplicaUrl).toMatch(/^postgres:\/\//);
    }
  });

  const manifests = ['api.yaml', 'worker.yaml', 'migrate-job.yaml', 'config.yaml'].flatMap((file) =>
    parseAllDocuments(readFileSync(join(ROOT, 'docker/k8s', file), 'utf8')).map(
      (document) => document.toJS() as K8sObject,
    ),
  );

  it('has Kubernetes manifests whose api probes are wired to /health/*', () => {
    const api = manifests.find(
      (m) => m.kind === 'Deployment' && m.metadata.name === 'gpumarket-api',
    );
    const container = api!.spec.template.spec.containers[0];
    expect(container.startupProbe.httpGet.path).toBe('/health/live');
    expect(container.livenessProbe.httpGet.path).toBe('/health/live');
    expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe])
      expect(container.ports.map((port: { name: string }) => port.name)).toContain(
        probe.httpGet.port,
      );
    expect(api!.spec.replicas).toBeGreaterThanOrEqual(2);
    const config = manifests.find((m) => m.kind === 'ConfigMap')!;
    const secret = manifests.find((m) => m.kind === 'Secret')!;
    const settings = loadPlatformConfig(
      new Environment({
        ...config.data,
        ...secret.stringData,
        ENCRYPTION_KEYS: REQUIRED.ENCRYPTION_KEYS,
      }),
    );
    expect(settings.redis.mode).toBe('cluster');
  });
});

interface K8sObject {
  kind: string;
  metadata: { name: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
