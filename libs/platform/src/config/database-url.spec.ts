import { databaseNameOf, databaseNameProblem } from './database-url';

describe('database names in DATABASE_URL', () => {
  it('reads the name as the pg driver does', () => {
    expect(databaseNameOf('postgres://h/gpumarket')).toBe('gpumarket');
    expect(databaseNameOf('postgres://h/my%20db')).toBe('my db');
    expect(databaseNameOf('postgres://h/aud_new%5Fx')).toBe('aud_new_x');
  });

  it('accepts names the driver and the server agree on', () => {
    for (const url of [
      'postgres://h/gpumarket',
      'postgres://h/my%20db',
      'postgres://h/a%5Fb',
      'postgres://h/',
    ])
      expect(databaseNameProblem('DATABASE_URL', url)).toBeNull();
  });

  it('refuses percent-encoded reserved characters, which the driver keeps encoded', () => {
    expect(databaseNameProblem('DATABASE_URL', 'postgres://h/aud%2Fnew%2Fx')).toMatch(
      /^DATABASE_URL names the database 'aud%2Fnew%2Fx', whose percent-encoded characters/,
    );
    expect(databaseNameProblem('DATABASE_REPLICA_URL', 'postgres://h/a%3Fb')).toMatch(
      /^DATABASE_REPLICA_URL names the database 'a%3Fb'/,
    );
  });

  it('refuses broken percent-encoding', () => {
    expect(databaseNameProblem('DATABASE_URL', 'postgres://h/bad%zz')).toBe(
      "DATABASE_URL names the database 'bad%zz', which is not valid percent-encoding",
    );
  });
});
