import { groupIdOf, optionsPatchFromWire } from './endpoint-group.request';

describe('endpoint group requests', () => {
  it('reads wire names, treating null as not given', () => {
    expect(
      optionsPatchFromWire({
        min_load: 10,
        endpoint_name: null,
        max_queue_time: null,
        cold_workers: 1,
        target_util: 0.5,
      }),
    ).toEqual({ minLoad: 10, coldWorkers: 1, targetUtil: 0.5 });
    const row: Record<string, unknown> = { client_id: 'me', inactivity_timeout: 0 };
    expect(optionsPatchFromWire(row)).toEqual({ inactivityTimeout: 0 });
  });

  it('takes the id from the path, which the body may only repeat', () => {
    expect(groupIdOf('42', undefined)).toBe(42);
    expect(groupIdOf('42', 42)).toBe(42);
    expect(groupIdOf('99999999999', null)).toBe(99_999_999_999);
    for (const raw of ['0', '-1', '1.5', 'abc', '']) {
      expect(() => groupIdOf(raw, undefined)).toThrow(
        expect.objectContaining({
          code: 'invalid_args',
          message: 'Invalid request: id: must be a positive integer',
        }),
      );
    }
    expect(() => groupIdOf('42', 41)).toThrow(
      expect.objectContaining({
        code: 'invalid_args',
        message: 'Invalid request: endptjob_id: 41 does not match the id in the path (42)',
      }),
    );
  });
});
