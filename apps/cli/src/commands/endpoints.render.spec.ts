import { renderEndpointGroups } from './endpoints.render';

describe('endpoint group rendering', () => {
  it('lists groups as a table without their api keys', () => {
    const text = renderEndpointGroups([
      {
        id: 7,
        endpoint_name: 'llm',
        endpoint_state: 'active',
        target_util: 0.9,
        api_key: 'secret',
        created_at: 0,
      },
    ]);
    expect(text).toMatch(/^id\s+name\s+state/);
    expect(text).toMatch(/^7\s+llm\s+active\s+-\s+-\s+0\.9/m);
    expect(text).not.toContain('secret');
    expect(renderEndpointGroups([])).toBe('No endpoint groups.\n');
  });
});
