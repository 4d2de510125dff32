import { AUDIT_LOG_POLICY, auditArgs, isSecretName, REMOVED } from './audit-entry';

describe('auditArgs', () => {
  it('keeps path, query and body parameters in one object; the path wins a clash', () => {
    expect(auditArgs({ id: '42' }, { limit: '5' }, { id: 43, max_workers: 8 })).toEqual({
      id: '42',
      limit: '5',
      max_workers: 8,
    });
    expect(auditArgs(undefined, undefined, ['not', 'an', 'object'])).toEqual({});
  });

  it('removes passwords, secrets, tokens, codes, keys and phone numbers, at any depth', () => {
    const args = auditArgs(
      {},
      { after_token: 'eyJ...' },
      {
        password: 'hunter2',
        secret: 's',
        tfa_secret: 's',
        code: '123456',
        backup_code: 'ABCD-EFGH-IJKL',
        api_key: 'k',
        apiKey: 'k',
        key: 'k',
        new_api_key: 'k',
        session_key: 'k',
        phone_number: '+15555550100',
        nested: { list: [{ password: 'p', label: 'work phone' }] },
        name: 'gmk_0123456789abcdefghijABCDEFGHIJ0123456789abc',
        key_params: { ip_whitelist: ['10.0.0.0/8'] },
        key_id: 7,
        tfa_method_id: 3,
        permissions: { api: { billing_read: {} } },
      },
    );
    expect(args).toEqual({
      after_token: REMOVED,
      password: REMOVED,
      secret: REMOVED,
      tfa_secret: REMOVED,
      code: REMOVED,
      backup_code: REMOVED,
      api_key: REMOVED,
      apiKey: REMOVED,
      key: REMOVED,
      new_api_key: REMOVED,
      session_key: REMOVED,
      phone_number: REMOVED,
      nested: { list: [{ password: REMOVED, label: 'work phone' }] },
      // A credential of ours under any name.
      name: REMOVED,
      key_params: { ip_whitelist: ['10.0.0.0/8'] },
      key_id: 7,
      tfa_method_id: 3,
      permissions: { api: { billing_read: {} } },
    });
    expect(isSecretName('key_params')).toBe(false);
    expect(isSecretName('X-Session-Key')).toBe(true);
  });

  it('stays small: long strings are cut, a large body keeps its short top-level values', () => {
    const long = 'x'.repeat(1000);
    expect(auditArgs({}, {}, { endpoint_name: long }).endpoint_name).toBe(
      `${'x'.repeat(AUDIT_LOG_POLICY.argValueMaxChars)}...`,
    );
    const big = auditArgs(
      { id: '1' },
      {},
      { list: Array.from({ length: 100 }, () => 'y'.repeat(200)), n: 1 },
    );
    expect(big).toEqual({ _truncated: true, n: 1, id: '1' });
    expect(JSON.stringify(big).length).toBeLessThanOrEqual(AUDIT_LOG_POLICY.argsMaxChars);
  });
});
