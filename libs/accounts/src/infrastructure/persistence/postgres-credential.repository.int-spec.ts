import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { credentialRepositoryContract } from '../../testing/credential-repository.contract';
import { InMemoryCredentialCache } from '../../testing/in-memory-credential-cache';
import { PostgresCredentialRepository } from './postgres-credential.repository';
import { PostgresTeamRepository } from './postgres-team.repository';
import { PostgresUserRepository } from './postgres-user.repository';

// The explicit team id owned by this file.
const TEAM_ID = 970_201;

describe('PostgresCredentialRepository and PostgresTeamRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const unique = randomUUID().slice(0, 8);
  const users: number[] = [];
  const teams: number[] = [TEAM_ID];

  credentialRepositoryContract(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    const cache = new InMemoryCredentialCache();
    const userRepository = new PostgresUserRepository(tx, cache);
    const teamRepository = new PostgresTeamRepository(tx);
    return {
      credentials: new PostgresCredentialRepository(tx, cache),
      teams: {
        upsert: (team) => teamRepository.upsert(team),
        create: async (name) => {
          const id = await teamRepository.create(name);
          teams.push(id);
          return id;
        },
        addMember: (teamId, userId) => teamRepository.addMember(teamId, userId),
        giveOwnerRole: (teamId, userId) => teamRepository.giveOwnerRole(teamId, userId),
        isMember: (teamId, userId) => teamRepository.isMember(teamId, userId),
      },
      cache,
      newUser: async (isAdmin) => {
        const email = `credentials-${users.length}-${unique}@example.test`;
        const { id } = await userRepository.create({ email, isAdmin });
        users.push(id);
        return id;
      },
      unique,
      teamId: TEAM_ID,
    };
  });

  // Keys, sessions and memberships go with their users and teams (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await dataSource.query(`DELETE FROM teams WHERE id = ANY($1)`, [teams]);
    await dataSource.destroy();
  });
});
