import { User } from '../domain/user';
import { presentPasswordLogin } from './password-login.presenter';

const user: User = {
  id: 7,
  email: 'ada@example.com',
  username: 'ada',
  fullName: 'Ada',
  emailVerifiedAt: new Date(0),
  isAdmin: false,
  phoneNumber: null,
  tfaEnabled: true,
  tfaStatus: 'enabled',
  credit: 0,
  balance: 0,
  smsFraudFlaggedAt: null,
  balanceThreshold: 0,
  balanceThresholdEnabled: false,
  createdAt: new Date(1_700_000_000_500),
};

describe('presentPasswordLogin', () => {
  it('the second step: the secret and each method as its 2FA method record', () => {
    const body = presentPasswordLogin({
      kind: 'second_factor',
      user,
      tfaSecret: 'secret',
      methods: [
        {
          kind: 'method',
          id: 55,
          userId: 7,
          type: 'sms',
          label: 'Work',
          maskedPhoneNumber: '********4567',
          isPrimary: true,
          failCount: 2,
          lockedUntilSeconds: 1_700_000_900,
          createdAt: new Date(1_700_000_000_999),
          lastUsedAt: null,
        },
        { kind: 'legacy', type: 'sms', maskedPhoneNumber: '********0123' },
      ],
    });
    // JSON keeps the order the clients and the recorded responses see.
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        success: true,
        tfa_required: true,
        tfa_secret: 'secret',
        methods: [
          {
            id: 55,
            user_id: 7,
            method: 'sms',
            label: 'Work',
            phone_number: '********4567',
            is_primary: true,
            fail_count: 2,
            locked_until: 1_700_000_900,
            created_at: 1_700_000_000,
            last_used: null,
          },
          { id: null, method: 'sms', phone_number: '********0123', legacy: true },
        ],
      }),
    );
  });

  it('a session: its key, its expiry in epoch seconds, the user object', () => {
    const body = presentPasswordLogin({
      kind: 'session',
      user,
      sessionKey: 'gms_key',
      expiresAt: new Date(1_700_000_600_700),
    });
    expect(body).toMatchObject({
      success: true,
      tfa_required: false,
      session_key: 'gms_key',
      expires_at: 1_700_000_600,
      user: { id: 7, email: 'ada@example.com', created_at: 1_700_000_000 },
    });
  });
});
