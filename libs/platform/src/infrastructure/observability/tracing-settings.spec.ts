import { ConfigError } from '../../config/config-error';
import { readTracingSettings } from './tracing-settings';

describe('readTracingSettings', () => {
  it('is off (null) when no exporter is configured, so the SDK is never loaded', () => {
    expect(readTracingSettings({})).toBeNull();
    expect(
      readTracingSettings({ OTEL_SERVICE_NAME: 'api', OTEL_TRACES_SAMPLER: 'always_on' }),
    ).toBeNull();
  });

  it('is off when OTEL_TRACES_EXPORTER is none or OTEL_SDK_DISABLED is true, endpoint or not', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(readTracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
    expect(readTracingSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeNull();
  });

  it('is on with an OTLP endpoint (protobuf by default) or an explicit exporter', () => {
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      exporter: 'otlp',
      protocol: 'http/protobuf',
      trustedProxies: ['loopback'],
    });
    expect(
      readTracingSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      })?.protocol,
    ).toBe('http/json');
    expect(readTracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })?.exporter).toBe('otlp');
    expect(readTracingSettings({ OTEL_TRACES_EXPORTER: 'console' })?.exporter).toBe('console');
  });

  it('reads TRUSTED_PROXIES as proxy-addr does, none trusting nobody', () => {
    const on = { OTEL_TRACES_EXPORTER: 'otlp' };
    expect(
      readTracingSettings({ ...on, TRUSTED_PROXIES: 'loopback, 10.0.0.0/8' })?.trustedProxies,
    ).toEqual(['loopback', '10.0.0.0/8']);
    expect(readTracingSettings({ ...on, TRUSTED_PROXIES: 'none' })?.trustedProxies).toEqual([]);
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL',
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER'],
    [
      {
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      },
      'OTEL_TRACES_SAMPLER_ARG',
    ],
    [{ OTEL_TRACES_EXPORTER: 'otlp', TRUSTED_PROXIES: '10.0.0.300' }, 'TRUSTED_PROXIES'],
    [{ OTEL_SDK_DISABLED: 'maybe' }, 'OTEL_SDK_DISABLED'],
  ])('refuses %j in one line naming %s', (env, variable) => {
    let error: unknown;
    try {
      readTracingSettings(env as NodeJS.ProcessEnv);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(variable);
    expect((error as Error).message).not.toContain('\n');
  });
});
