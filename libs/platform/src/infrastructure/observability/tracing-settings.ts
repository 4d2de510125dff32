import { BOOLEAN_WORDS, parseBooleanSetting } from '../../config/boolean-setting';
import { ConfigError } from '../../config/config-error';
import { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies } from '../../config/trusted-proxies';

/**
 * Tracing as the standard OpenTelemetry variables configure it. Read by the preload before
 * anything else is loaded, so it imports nothing but the config error and proxy-addr.
 */
export interface TracingSettings {
  /** otlp: OTLP/HTTP to OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT; console: spans on stdout. */
  exporter: 'otlp' | 'console';
  /** OTLP/HTTP encoding: protobuf (the OpenTelemetry default) or JSON. */
  protocol: 'http/protobuf' | 'http/json';
  /**
   * Addresses (proxy-addr's syntax: loopback, uniquelocal, CIDRs) whose W3C traceparent a
   * request may carry in; anyone else's is ignored and the request starts its own trace.
   */
  trustedProxies: string[];
}

const EXPORTERS = ['otlp', 'console', 'none'];
const PROTOCOLS = ['http/protobuf', 'http/json'];
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/**
 * The tracing settings, or null when tracing is off: OTEL_SDK_DISABLED is true,
 * OTEL_TRACES_EXPORTER is `none`, or it is unset and no OTLP endpoint is configured (the
 * SDK is then not even loaded). Every mistake is one problem naming its variable.
 */
export function readTracingSettings(env: NodeJS.ProcessEnv): TracingSettings | null {
  const problems: string[] = [];
  const disabled = parseBooleanSetting(value(env, 'OTEL_SDK_DISABLED'));
  if (disabled === true) return null;
  if (disabled === null) problems.push(`OTEL_SDK_DISABLED must be one of ${BOOLEAN_WORDS}`);
  const exporter = value(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase();
  const endpoint =
    value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (exporter !== undefined && !EXPORTERS.includes(exporter))
    problems.push(
      `OTEL_TRACES_EXPORTER must be one of ${EXPORTERS.join(', ')} (got '${exporter}')`,
    );
  const protocol = (
    value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf'
  ).toLowerCase();
  if (!PROTOCOLS.includes(protocol))
    problems.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got '${protocol}'; ` +
        'a collector takes OTLP/HTTP on port 4318)',
    );
  if (endpoint !== undefined && !/^https?:\/\/[^/]/i.test(endpoint))
    problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL`);
  const sampler = value(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase();
  if (sampler !== undefined && !SAMPLERS.includes(sampler))
    problems.push(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got '${sampler}')`);
  const ratio = value(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (sampler?.endsWith('traceidratio') && ratio !== undefined) {
    const parsed = Number(ratio);
    if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1)
      problems.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got '${ratio}')`);
  }
  const trustedProxies = parseTrustedProxies(
    value(env, 'TRUSTED_PROXIES') ?? DEFAULT_TRUSTED_PROXIES,
  );
  if (typeof trustedProxies === 'string') problems.push(trustedProxies);
  if (problems.length > 0) throw new ConfigError(problems);
  const on = exporter === undefined ? endpoint !== undefined : exporter !== 'none';
  if (!on) return null;
  return {
    exporter: exporter === 'console' ? 'console' : 'otlp',
    protocol: protocol as TracingSettings['protocol'],
    trustedProxies: trustedProxies as string[],
  };
}
