import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  ConfigError,
  dataSourceOptions,
  DEFAULT_METRICS_PORTS,
  Environment,
  loadPlatformConfig,
} from '@app/platform';
import { loadSmsAntiFraudSettings } from '@app/identity-tfa/infrastructure/anti-fraud/sms-anti-fraud-settings';
import { loadDeliverySettings } from '@app/messaging';
import { loadTfaSettings } from '@app/identity-tfa/infrastructure/tfa-config';
import { loadAccountSecuritySettings } from '@app/account-security/testing';
import { readTracingSettings } from '@app/platform/testing';
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
  loadAccountSecuritySettings(environment);
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
    // By number, not name: the kubelet refuses runAsNonRoot for a user it cannot check.
    const user = /^USER (\d+)(?::(\d+))?$/m.exec(finalStage);
    expect(user).not.toBeNull();
    expect(Number(user![1])).toBeGreaterThan(0);
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
      // The worker's own words say why, should it ever stop otherwise than cleanly.
      if (worker.child.exitCode !== 0) {
        throw new Error(`worker exited ${worker.child.exitCode}:\n${worker.output.join('\n')}`);
      }
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
      // 3 masters with a replica each: one node lost never stops the cluster.
      expect(nodes).toHaveLength(6);
      for (const node of nodes) expect(services[node]).toBeDefined();
      const create = String(services['redis-cluster-create'].command);
      expect(create).toContain('--cluster-replicas 1');
      for (const node of nodes) expect(create).toContain(`${node}:6379`);
      expect(services[new URL(env.DATABASE_REPLICA_URL).hostname]).toBeDefined();
      expect(services[new URL(env.DATABASE_URL).hostname]).toBeDefined();
      // The same secrets everywhere: both come from the one shared block.
      expect(env.SECRET_HMAC_KEY).toBe(REQUIRED.SECRET_HMAC_KEY);
      expect(env.ENCRYPTION_KEYS).toBe(REQUIRED.ENCRYPTION_KEYS);
    }
    // Migrations hold a session-level advisory lock: never through the transaction pooler.
    expect(new URL(appEnv('migrate').DATABASE_URL).hostname).toBe('postgres-primary');
  });

  it('dials PgBouncer where it listens, with the startup parameters it lets through', () => {
    const { services } = scaleCompose;
    const bouncer = environmentOf(services.pgbouncer);
    // A pinned image: `latest` changes what ignore_startup_parameters and prepared statements do.
    expect(services.pgbouncer.image).toMatch(/^edoburu\/pgbouncer:v1\.\d+\.\d+/);
    const ignored = bouncer.IGNORE_STARTUP_PARAMETERS.split(',');
    for (const service of ['api', 'worker']) {
      const env = appEnv(service);
      const url = new URL(env.DATABASE_URL);
      expect({ service, host: url.hostname, port: url.port }).toEqual({
        service,
        host: 'pgbouncer',
        port: bouncer.LISTEN_PORT,
      });
      // Every startup parameter the pool sends beyond those PgBouncer tracks is ignored.
      const config = loadPlatformConfig(new Environment(env));
      const { extra } = dataSourceOptions(env.DATABASE_URL, config.database) as {
        extra: Record<string, unknown>;
      };
      for (const parameter of ['statement_timeout', 'lock_timeout'].filter((p) => p in extra))
        expect({ service, parameter, ignored: ignored.includes(parameter) }).toEqual({
          service,
          parameter,
          ignored: true,
        });
      // Named statements only where PgBouncer carries them (1.21+: max_prepared_statements).
      if (!bouncer.MAX_PREPARED_STATEMENTS) expect(config.databasePreparedStatements).toBe(false);
    }
    // What the ignored timeouts become: settings of the database, from its first start.
    const initScripts = (services['postgres-primary'] as { volumes: string[] }).volumes.filter(
      (volume) => volume.includes('docker-entrypoint-initdb.d'),
    );
    const timeouts = initScripts.find((volume) => volume.includes('session-timeouts.sql'));
    expect(timeouts).toBeDefined();
    const sql = readFileSync(join(ROOT, 'docker', timeouts!.split(':')[0]), 'utf8');
    expect(sql).toMatch(/^ALTER DATABASE gpumarket SET statement_timeout = '30s';$/m);
    expect(sql).toMatch(/^ALTER DATABASE gpumarket SET lock_timeout = '5s';$/m);
    // max_client_conn takes every process's pool, with one extra api during a rolling update.
    const processes =
      (services.api.deploy?.replicas ?? 1) + 1 + (services.worker.deploy?.replicas ?? 1);
    expect(Number(bouncer.MAX_CLIENT_CONN)).toBeGreaterThanOrEqual(
      processes * Number(appEnv('api').DATABASE_POOL_MAX),
    );
  });

  it('lets Prometheus scrape every process on its metrics listener, published nowhere', () => {
    const { services } = scaleCompose;
    for (const service of ['api', 'worker']) expect(appEnv(service).METRICS_HOST).toBe('0.0.0.0');
    for (const port of Object.values(DEFAULT_METRICS_PORTS))
      expect(JSON.stringify(services.api.ports ?? [])).not.toContain(String(port));
    const prometheus = services.prometheus as { volumes: string[] };
    expect(prometheus.volumes).toEqual(
      expect.arrayContaining([
        './prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
    const scrape = parseAllDocuments(
      readFileSync(join(ROOT, 'docker/prometheus/prometheus.yml'), 'utf8'),
    )[0].toJS() as {
      rule_files: string[];
      scrape_configs: Array<{ dns_sd_configs: Array<{ names: string[]; port: number }> }>;
    };
    expect(scrape.rule_files).toEqual(['alerts.yml']);
    const targets = scrape.scrape_configs.flatMap((job) =>
      job.dns_sd_configs.map((sd) => `${sd.names[0]}:${sd.port}`),
    );
    expect(targets.sort()).toEqual([
      `api:${DEFAULT_METRICS_PORTS.api}`,
      `worker:${DEFAULT_METRICS_PORTS.worker}`,
    ]);
  });

  it('gives settings the service accepts in production', () => {
    for (const service of ['api', 'worker', 'migrate']) {
      const config = loadPlatformConfig(new Environment(appEnv(service)));
      expect(config.redis.mode).toBe('cluster');
      expect(config.databaseReplicaUrl).toMatch(/^postgres:\/\//);
    }
  });

  it('carries the tracing settings: off until the operator names a collector, then sampled', () => {
    for (const service of ['api', 'worker']) {
      expect(readTracingSettings(appEnv(service))).toBeNull();
      const on = { ...appEnv(service), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' };
      expect(readTracingSettings(on)).toMatchObject({ exporter: 'otlp' });
      expect(on).toMatchObject({
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      });
    }
    const config = named('ConfigMap', 'gpumarket-config') as unknown as {
      data: Record<string, string>;
    };
    expect(readTracingSettings(config.data)).toMatchObject({
      exporter: 'otlp',
      trustedProxies: ['loopback', 'uniquelocal'],
    });
  });

  const manifestFiles = readdirSync(join(ROOT, 'docker/k8s')).filter((file) =>
    file.endsWith('.yaml'),
  );
  const manifests = manifestFiles.flatMap((file) =>
    parseAllDocuments(readFileSync(join(ROOT, 'docker/k8s', file), 'utf8')).map(
      (document) => document.toJS() as K8sObject,
    ),
  );
  const named = (kind: string, name: string) =>
    manifests.find((m) => m.kind === kind && m.metadata.name === name)!;

  it('has Kubernetes manifests that the Kubernetes schemas accept', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(10);
    for (const manifest of manifests) {
      expect({
        kind: manifest.kind,
        name: manifest.metadata.name,
        problem: k8sProblem(manifest),
      }).toEqual({
        kind: manifest.kind,
        name: manifest.metadata.name,
        problem: null,
      });
    }
    // The check itself: a port given as text is refused.
    const broken = structuredClone(named('Deployment', 'gpumarket-api'));
    broken.spec.template.spec.containers[0].ports[0].containerPort = '3000';
    expect(k8sProblem(broken)).toMatch(/containerPort must be integer/);
  });

  it('runs every pod as a numeric non-root user, spread over nodes, with disruption budgets', () => {
    const pods = manifests
      .filter((m) => m.kind === 'Deployment' || m.kind === 'Job')
      .map((m) => ({ name: m.metadata.name, spec: m.spec.template.spec }));
    expect(pods.map((pod) => pod.name).sort()).toEqual([
      'gpumarket-api',
      'gpumarket-migrate',
      'gpumarket-worker',
    ]);
    for (const { name, spec } of pods) {
      expect({ name, securityContext: spec.securityContext }).toEqual({
        name,
        securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000 },
      });
      for (const container of spec.containers) {
        expect(container.resources?.requests).toBeDefined();
        expect(container.resources?.limits?.memory).toBeDefined();
      }
    }
    for (const name of ['gpumarket-api', 'gpumarket-worker']) {
      const deployment = named('Deployment', name);
      const labels = deployment.spec.selector.matchLabels;
      const spread = deployment.spec.template.spec.topologySpreadConstraints;
      expect(spread.map((c: { topologyKey: string }) => c.topologyKey)).toContain(
        'kubernetes.io/hostname',
      );
      for (const constraint of spread) expect(constraint.labelSelector.matchLabels).toEqual(labels);
      const budget = named('PodDisruptionBudget', name);
      expect(budget.spec.selector.matchLabels).toEqual(labels);
      expect(budget.spec.maxUnavailable).toBe(1);
    }
    const hpa = named('HorizontalPodAutoscaler', 'gpumarket-api');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'gpumarket-api',
    });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(
      named('PodDisruptionBudget', 'gpumarket-api').spec.maxUnavailable + 1,
    );
  });

  it('probes the worker on its metrics listener and exposes both metrics ports to Prometheus only', () => {
    for (const [name, port] of [
      ['gpumarket-api', DEFAULT_METRICS_PORTS.api],
      ['gpumarket-worker', DEFAULT_METRICS_PORTS.worker],
    ] as const) {
      const pod = named('Deployment', name).spec.template;
      const container = pod.spec.containers[0];
      expect(container.ports).toContainEqual({ name: 'metrics', containerPort: port });
      expect(pod.metadata.annotations['prometheus.io/port']).toBe(String(port));
    }
    const worker = named('Deployment', 'gpumarket-worker').spec.template.spec.containers[0];
    expect(worker.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'metrics' });
    expect(worker.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'metrics' });
    expect(named('ConfigMap', 'gpumarket-config').data!.METRICS_HOST).toBe('0.0.0.0');
    const policy = named('NetworkPolicy', 'gpumarket-ingress');
    const metricsRule = policy.spec.ingress.find((rule: { from?: unknown }) => rule.from);
    expect(metricsRule.ports.map((p: { port: number }) => p.port).sort()).toEqual(
      Object.values(DEFAULT_METRICS_PORTS).sort(),
    );
  });

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

/** What the Kubernetes schemas of its apiVersion and kind say of an object (null: valid). */
function k8sProblem(object: K8sObject & { apiVersion?: string }): string | null {
  // kubernetes-models ships the schemas of every built-in kind, one module per version and kind.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require(`kubernetes-models/${object.apiVersion}/${object.kind}`) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  try {
    new module[object.kind](object).validate();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

interface K8sObject {
  kind: string;
  metadata: { name: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
