import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

/**
 * Users for the adapters' integration tests (the 2FA and account-security tables reference users); removing
 * them removes every row the tests made, by the foreign keys' ON DELETE CASCADE.
 */
export class TestUsers {
  private readonly ids: number[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly purpose: string,
  ) {}

  async create(): Promise<number> {
    const rows = await this.dataSource.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [
      `${this.purpose}-${randomUUID()}@example.test`,
    ]);
    this.ids.push(rows[0].id);
    return rows[0].id;
  }

  async removeAll(): Promise<void> {
    await this.dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [this.ids]);
  }
}
