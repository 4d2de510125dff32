import { accountsKit } from '../../testing/accounts-kit';
import { GetCurrentUserUseCase } from './get-current-user.use-case';

describe('GetCurrentUserUseCase', () => {
  it('answers the user of the credential', async () => {
    const kit = accountsKit();
    const user = await kit.users.create({ email: 'ada@example.test', username: 'ada' });
    expect(await new GetCurrentUserUseCase(kit.users).execute(user.id)).toEqual(user);
  });

  it('treats a credential whose user is gone as an invalid key', async () => {
    const kit = accountsKit();
    await expect(new GetCurrentUserUseCase(kit.users).execute(424242)).rejects.toMatchObject({
      code: 'auth_invalid_key',
      message: 'Invalid user key',
    });
  });
});
