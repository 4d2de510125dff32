import { MigrationInterface, QueryRunner } from 'typeorm';

/** Prices are money: exact decimals, never binary floating point. */
export class VolumePriceNumeric1767000300001 implements MigrationInterface {
  name = 'VolumePriceNumeric1767000300001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE volume_listings ALTER COLUMN price_per_gb_month TYPE numeric(14, 6) USING round(price_per_gb_month::numeric, 6)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE volume_listings ALTER COLUMN price_per_gb_month TYPE double precision`,
    );
  }
}
