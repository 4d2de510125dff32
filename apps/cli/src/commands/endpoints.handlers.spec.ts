import { UsageError } from '../errors';
import { createEndpointBody, updateEndpointBody } from './endpoints.handlers';

describe('endpoint group bodies', () => {
  it('create sends every option in wire order with the documented defaults', () => {
    const body = createEndpointBody({});
    expect(Object.keys(body)).toEqual([
      'client_id',
      'min_load',
      'min_cold_load',
      'target_util',
      'cold_mult',
      'cold_workers',
      'max_workers',
      'endpoint_name',
      'max_queue_time',
      'target_queue_time',
      'inactivity_timeout',
      'autoscaler_instance',
    ]);
    expect(body).toEqual({
      client_id: 'me',
      min_load: 0,
      min_cold_load: 0,
      target_util: 0.9,
      cold_mult: 2.5,
      cold_workers: 5,
      max_workers: 20,
      endpoint_name: null,
      max_queue_time: 30,
      target_queue_time: 10,
      inactivity_timeout: null,
      autoscaler_instance: 'prod',
    });
  });

  it('create keeps given values and checks the cross-field rules', () => {
    expect(
      createEndpointBody({ endpoint_name: 'llm', max_workers: 3, cold_workers: 3 }),
    ).toMatchObject({
      endpoint_name: 'llm',
      max_workers: 3,
      cold_workers: 3,
    });
    expect(() => createEndpointBody({ max_workers: 2 })).toThrow(UsageError);
    expect(() => createEndpointBody({ target_queue_time: 40 })).toThrow(
      /must not exceed --max_queue_time/,
    );
  });

  it('update sends all 14 keys, null for what stays unchanged', () => {
    const body = updateEndpointBody(42, { max_workers: 30, endpoint_state: 'suspended' });
    expect(Object.keys(body)).toHaveLength(14);
    expect(body).toEqual({
      client_id: 'me',
      endptjob_id: 42,
      min_load: null,
      min_cold_load: null,
      target_util: null,
      cold_mult: null,
      cold_workers: null,
      max_workers: 30,
      endpoint_name: null,
      endpoint_state: 'suspended',
      max_queue_time: null,
      target_queue_time: null,
      inactivity_timeout: null,
      autoscaler_instance: 'prod',
    });
  });
});
