import { thrownBy } from '@app/platform/testing';
import {
  DEFAULT_ENDPOINT_GROUP_OPTIONS,
  EndpointGroup,
  endpointGroupUnchanged,
  EndpointGroupOptionsPatch,
  EndpointState,
  newEndpointGroupOptions,
  updatedEndpointGroup,
} from './endpoint-group';

const group = (overrides: EndpointGroupOptionsPatch = {}): EndpointGroup => ({
  id: 1,
  userId: 2,
  options: { ...DEFAULT_ENDPOINT_GROUP_OPTIONS, ...overrides },
  state: 'active',
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('endpoint group options', () => {
  it('takes the documented defaults for everything not given', () => {
    expect(newEndpointGroupOptions({})).toEqual({
      minLoad: 0,
      minColdLoad: 0,
      targetUtil: 0.9,
      coldMult: 2.5,
      coldWorkers: 5,
      maxWorkers: 20,
      endpointName: null,
      maxQueueTime: 30,
      targetQueueTime: 10,
      inactivityTimeout: 600,
    });
  });

  it('accepts the boundaries', () => {
    expect(
      newEndpointGroupOptions({
        minLoad: 0,
        minColdLoad: 0,
        targetUtil: 1.0,
        coldMult: 0.001,
        coldWorkers: 0,
        maxWorkers: 0,
        endpointName: 'a'.repeat(255),
        maxQueueTime: 0.5,
        targetQueueTime: 0.5,
        inactivityTimeout: 0,
      }),
    ).toMatchObject({ targetUtil: 1, maxWorkers: 0, targetQueueTime: 0.5 });
  });

  it.each<[EndpointGroupOptionsPatch, string]>([
    [{ minLoad: -0.1 }, 'min_load'],
    [{ minColdLoad: -1 }, 'min_cold_load'],
    [{ targetUtil: 0 }, 'target_util'],
    [{ targetUtil: 1.01 }, 'target_util'],
    [{ coldMult: 0 }, 'cold_mult'],
    [{ coldWorkers: -1 }, 'cold_workers'],
    [{ coldWorkers: 2.5 }, 'cold_workers'],
    [{ maxWorkers: 2 }, 'cold_workers'],
    [{ maxWorkers: 2 ** 31 }, 'max_workers'],
    [{ endpointName: '' }, 'endpoint_name'],
    [{ endpointName: 'has space' }, 'endpoint_name'],
    [{ endpointName: 'llama?3' }, 'endpoint_name'],
    [{ endpointName: 'café' }, 'endpoint_name'],
    [{ endpointName: 'a\nb' }, 'endpoint_name'],
    [{ endpointName: 'a'.repeat(256) }, 'endpoint_name'],
    [{ maxQueueTime: 0 }, 'max_queue_time'],
    [{ targetQueueTime: 0 }, 'target_queue_time'],
    [{ targetQueueTime: 31 }, 'target_queue_time'],
    [{ inactivityTimeout: -1 }, 'inactivity_timeout'],
    [{ inactivityTimeout: 1.5 }, 'inactivity_timeout'],
    [{ minLoad: Number.NaN }, 'min_load'],
    [{ coldMult: Number.POSITIVE_INFINITY }, 'cold_mult'],
  ])('refuses %p naming %s', (patch, field) => {
    const error = thrownBy(() => newEndpointGroupOptions(patch));
    expect(error.code).toBe('invalid_args');
    expect(error.message).toContain(`${field}:`);
  });

  it.each(['llama-3.1-8b', 'meta/llama:3.1', 'Qwen2.5_72B', 'a', 'x'.repeat(255)])(
    'accepts the endpoint name %p',
    (endpointName) => {
      expect(newEndpointGroupOptions({ endpointName }).endpointName).toBe(endpointName);
    },
  );
});

describe('updatedEndpointGroup', () => {
  it('merges only the given options and keeps the rest', () => {
    const current = group({ endpointName: 'prod', maxWorkers: 8 });
    expect(updatedEndpointGroup(current, { minLoad: 3 }, undefined)).toEqual({
      options: { ...current.options, minLoad: 3 },
      state: 'active',
    });
  });

  it('re-validates the merged result against the current values', () => {
    const current = group({ coldWorkers: 4, maxWorkers: 8, maxQueueTime: 20, targetQueueTime: 5 });
    expect(
      thrownBy(() => updatedEndpointGroup(current, { maxWorkers: 3 }, undefined)).message,
    ).toContain('cold_workers:');
    expect(
      thrownBy(() => updatedEndpointGroup(current, { maxQueueTime: 4 }, undefined)).message,
    ).toContain('target_queue_time:');
    expect(
      updatedEndpointGroup(current, { maxWorkers: 3, coldWorkers: 3 }, undefined).options,
    ).toMatchObject({ maxWorkers: 3, coldWorkers: 3 });
  });

  it('changes the state only to a known one', () => {
    expect(updatedEndpointGroup(group(), {}, 'stopped').state).toBe('stopped');
    const error = thrownBy(() => updatedEndpointGroup(group(), {}, 'paused' as EndpointState));
    expect(error.message).toContain('endpoint_state:');
  });
});

describe('endpointGroupUnchanged', () => {
  it('tells a no-op from a change of any option or of the state', () => {
    const current = group({ endpointName: 'prod' });
    expect(endpointGroupUnchanged(current, updatedEndpointGroup(current, {}, undefined))).toBe(
      true,
    );
    expect(
      endpointGroupUnchanged(current, updatedEndpointGroup(current, { minLoad: 0 }, 'active')),
    ).toBe(true);
    expect(
      endpointGroupUnchanged(current, updatedEndpointGroup(current, { minLoad: 0.5 }, undefined)),
    ).toBe(false);
    expect(
      endpointGroupUnchanged(
        current,
        updatedEndpointGroup(current, { endpointName: 'b' }, undefined),
      ),
    ).toBe(false);
    expect(endpointGroupUnchanged(current, updatedEndpointGroup(current, {}, 'stopped'))).toBe(
      false,
    );
  });
});
