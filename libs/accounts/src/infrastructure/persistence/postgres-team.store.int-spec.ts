import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { teamStoreContract } from '../../testing/team-store.contract';
import { PostgresTeamStore } from './postgres-team.store';

/** PostgresTeamStore against the suite its in-memory fake answers too (testing/team-store.contract.ts). */
describe('PostgresTeamStore (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const unique = randomUUID().slice(0, 8);
  const users: number[] = [];

  teamStoreContract(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    const store = new PostgresTeamStore(tx);
    return {
      store,
      async user(credit = '0') {
        const [row] = await tx.rows<{ id: number; email: string }>(
          `INSERT INTO users (email, credit) VALUES ($1, $2::numeric) RETURNING id, email`,
          [`team-store-${users.length}-${unique}@example.test`, credit],
        );
        users.push(row.id);
        return row;
      },
      async apiKey(userId, options = {}) {
        const [row] = await tx.rows<{ id: number }>(
          `INSERT INTO api_keys (user_id, key_hash, key_prefix, is_main, permissions)
           VALUES ($1, $2, 'gmk_test', $3, $4) RETURNING id`,
          [
            userId,
            `team-store-${randomUUID()}`,
            options.main ?? false,
            options.permissions ? JSON.stringify(options.permissions) : null,
          ],
        );
        return row.id;
      },
      async credential(id) {
        const [row] = await tx.rows<{ team_id: number | null; revoked: boolean; is_main: boolean }>(
          `SELECT team_id, revoked_at IS NOT NULL AS revoked, is_main FROM api_keys WHERE id = $1`,
          [id],
        );
        return row ? { teamId: row.team_id, revoked: row.revoked, main: row.is_main } : null;
      },
      async credit(userId) {
        const [row] = await tx.rows<{ credit: string }>(
          `SELECT credit::text AS credit FROM users WHERE id = $1`,
          [userId],
        );
        return row.credit;
      },
    };
  });

  afterAll(async () => {
    // The suite's teams: each keeps its owner, a user of the suite, as a member.
    await dataSource.query(
      `DELETE FROM teams WHERE id IN (SELECT team_id FROM team_members WHERE user_id = ANY($1))`,
      [users],
    );
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await dataSource.destroy();
  });
});
