import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { Environment, loadPlatformConfig } from '@app/platform';
import { ROOT, runManage, spawnApi } from '@test/support/api';
import { spawnWorker } from '@test/support/delivery';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '@test/support/test-env';

/**
 * `docker compose config` needs no Docker engine: the Compose v2 plugin or the Debian
 * package `docker-compose` (v1) both render and validate the file. CI installs the latter.
 */
function composeCommand(): string[] {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const probe = spawnSync(command[0], [...command.slice(1), 'version'], { stdio: 'ignore' });
    if (probe.status === 0) return command;
  }
  throw new Error(
    'Neither `docker compose` nor `docker-compose` is installed ' +
      '(apt-get install -y --no-install-recommends docker-compose)',
  );
}

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
const OPTIONAL = { TWILIO_MESSAGING_SERVICE_SID: 'MG0123456789abcdef0123456789abcdef' };

function composeConfig(env: Record<string, string>, ...flags: string[]) {
  const [bin, ...base] = composeCommand();
  const withoutOperatorSettings = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !(name in REQUIRED) && !name.startsWith('TWILIO_') && !name.startsWith('SMTP_'),
    ),
  );
  return spawnSync(bin, [...base, '-f', COMPOSE_FILE, 'config', ...flags], {
    env: { ...withoutOperatorSettings, ...env },
    encoding: 'utf8',
  });
}

interface ComposeService {
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
}

/** A service's environment as compose renders it, with every value a string. */
function environmentOf(service: ComposeService): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [name, String(value ?? '')]),
  );
}

/** What differs on this machine: the compose network's host names do not resolve here. */
const LOCAL_SERVICES = {
  DATABASE_URL: TEST_DATABASE_URL,
  REDIS_URL: TEST_REDIS_URL,
  PORT: '0',
  HOST: '127.0.0.1',
};

/** What a deployment relies on in docker/, checked without a Docker engine. */
describe('deployment files', () => {
  const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

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

  it('has a compose file that `docker compose config` accepts once the operator settings are given', () => {
    const rendered = composeConfig({ ...REQUIRED, ...OPTIONAL }, '-q');
    expect(rendered.stderr).toBe('');
    expect(rendered.status).toBe(0);
  });

  it.each(Object.keys(REQUIRED))('refuses to render without %s, naming it', (name) => {
    const settings: Record<string, string> = { ...REQUIRED, ...OPTIONAL };
    delete settings[name];
    const rendered = composeConfig(settings, '-q');
    expect(rendered.status).not.toBe(0);
    expect(rendered.stderr).toContain(name);
  });

  it('renders a production configuration that the release step, the api and the worker accept', async () => {
    const rendered = composeConfig({ ...REQUIRED, ...OPTIONAL });
    expect(rendered.status).toBe(0);
    const services = (parse(rendered.stdout) as { services: Record<string, ComposeService> })
      .services;
    expect(environmentOf(services.api)).toMatchObject({
      NODE_ENV: 'production',
      MIGRATIONS_RUN: 'false',
      RUN_WORKER: 'false',
    });

    // The release step: migrations run by their own service before the api starts.
    expect(services.migrate.command).toEqual([
      'node',
      'dist/apps/manage/src/main.js',
      'migration:run',
    ]);
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

    expect(services.worker.command).toEqual(['node', 'dist/apps/worker/src/main.js']);
    const worker = await spawnWorker({ ...environmentOf(services.worker), ...LOCAL_SERVICES });
    await worker.kill('SIGTERM');
    expect(worker.child.exitCode).toBe(0);
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
