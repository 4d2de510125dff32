import { accountsKit } from './accounts-kit';
import { InMemoryTeamStore } from './in-memory-team-store';
import { teamStoreContract } from './team-store.contract';

/** The team store fake the team use-case specs run on answers as PostgresTeamStore does. */
describe('InMemoryTeamStore', () => {
  teamStoreContract(async () => {
    const kit = accountsKit();
    const store = new InMemoryTeamStore(kit.users, kit.credentials, () => kit.clock.now());
    let next = 1;
    return {
      store,
      async user(credit = '0') {
        const user = await kit.users.create({
          email: `team-store-${next++}@example.test`,
          credit: Number(credit),
        });
        return { id: user.id, email: user.email };
      },
      async apiKey(userId, options = {}) {
        const issued = await kit.issuer.issueManagedKey({
          userId,
          teamId: null,
          name: null,
          permissions: (options.permissions ?? null) as never,
          keyParams: null,
          expiresAt: null,
          main: options.main ?? false,
        });
        return issued.apiKey.id;
      },
      async credential(id) {
        const row = kit.credentials.rows.find((found) => found.id === id);
        return row ? { teamId: row.teamId, revoked: row.revokedAt !== null, main: row.main } : null;
      },
      async credit(userId) {
        const credit = (await kit.users.findById(userId))!.credit;
        return credit.toFixed(4);
      },
    };
  });
});
