import { rejection } from '@app/platform/testing';
import { InMemoryUserRepository } from '../../testing/in-memory-users';
import { ChangeUserSettingsUseCase } from './change-user-settings.use-case';

describe('ChangeUserSettingsUseCase', () => {
  const setup = () => {
    const users = new InMemoryUserRepository();
    users.add({ id: 7 });
    return { users, change: new ChangeUserSettingsUseCase(users) };
  };

  it('sets the low-balance threshold and its switch, each given alone or together', async () => {
    const { users, change } = setup();
    expect(await change.execute(7, { balance_threshold: 25.5 })).toMatchObject({
      balanceThreshold: 25.5,
      balanceThresholdEnabled: false,
    });
    await change.execute(7, { balance_threshold_enabled: true });
    expect(await users.findById(7)).toMatchObject({
      balanceThreshold: 25.5,
      balanceThresholdEnabled: true,
    });
    await change.execute(7, { balance_threshold: 0, balance_threshold_enabled: false });
    expect(await users.findById(7)).toMatchObject({
      balanceThreshold: 0,
      balanceThresholdEnabled: false,
    });
  });

  it('refuses what it cannot keep by name, and bad values, changing nothing', async () => {
    const { users, change } = setup();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'nothing to change: give balance_threshold or balance_threshold_enabled'],
      [{ balance_threshold: -1 }, 'balance_threshold must be from 0 to 1000000000'],
      [{ balance_threshold: '5' }, 'balance_threshold must be a number'],
      [{ balance_threshold: 1.234 }, 'balance_threshold must have at most 2 decimals'],
      [{ balance_threshold_enabled: 'yes' }, 'balance_threshold_enabled must be a boolean'],
      [
        { balance_threshold: 5, ssh_key: 'ssh-ed25519 AAAA', phone_number: '+1' },
        'not supported by this service: phone_number, ssh_key',
      ],
      [{ balance_threshold: 5, colour: 'red' }, 'unknown keys: colour'],
    ];
    for (const [body, message] of cases)
      expect(await rejection(change.execute(7, body))).toMatchObject({
        code: 'bad_request',
        message,
      });
    expect(await users.findById(7)).toMatchObject({ balanceThreshold: 0 });
  });
});
