import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { ContractRepository } from '../application/ports/contract.repository.port';
import { Contract, DailyCharge } from '../domain/contract';

/** Adds (sign +1) or removes (-1) a contract's charges from its wrapper's daily rollup. */
const ROLLUP_SQL = (sign: '+' | '-') => `
  INSERT INTO billing_serverless_daily (user_id, group_key, day, amount)
  SELECT c.user_id, c.group_key, ch.day, ${sign}sum(ch.amount)
    FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id
   WHERE c.id = $1 AND c.group_key IS NOT NULL
   GROUP BY c.user_id, c.group_key, ch.day
  ON CONFLICT (user_id, group_key, day)
  DO UPDATE SET amount = billing_serverless_daily.amount + EXCLUDED.amount`;

@Injectable()
export class TypeormContractRepository extends ContractRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async replace(contract: Contract, charges: DailyCharge[]): Promise<void> {
    // Incremental rollup updates (ON CONFLICT row locks) stay correct under concurrent writers.
    await this.tx.transaction(async () => {
      const manager = this.tx.manager;
      await manager.query(`SELECT 1 FROM billing_contracts WHERE id = $1 FOR UPDATE`, [
        contract.id,
      ]);
      await manager.query(ROLLUP_SQL('-'), [contract.id]);
      await manager.query(`DELETE FROM billing_charges WHERE contract_id = $1`, [contract.id]);
      await manager.query(
        `INSERT INTO billing_contracts
           (id, user_id, kind, start_ts, end_ts, label, template_id, endpoint_id, workergroup_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (id) DO UPDATE SET
           user_id = EXCLUDED.user_id, kind = EXCLUDED.kind, start_ts = EXCLUDED.start_ts,
           end_ts = EXCLUDED.end_ts, label = EXCLUDED.label, template_id = EXCLUDED.template_id,
           endpoint_id = EXCLUDED.endpoint_id, workergroup_id = EXCLUDED.workergroup_id`,
        [
          contract.id,
          contract.userId,
          contract.kind,
          contract.start,
          contract.end,
          contract.label,
          contract.templateId,
          contract.endpointId,
          contract.workergroupId,
        ],
      );
      if (charges.length > 0) {
        await manager.query(
          `INSERT INTO billing_charges (contract_id, day, type, quantity, unit, rate, amount)
           SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::numeric[], $5::text[], $6::numeric[], $7::numeric[])`,
          [
            contract.id,
            charges.map((charge) => charge.day),
            charges.map((charge) => charge.type),
            charges.map((charge) => charge.quantity),
            charges.map((charge) => charge.unit),
            charges.map((charge) => charge.rate),
            charges.map((charge) => charge.amount),
          ],
        );
      }
      await manager.query(
        `UPDATE billing_contracts c
            SET first_charge_day = s.first_day, last_charge_day = s.last_day,
                charge_days_gapped = coalesce(s.days < (s.last_day - s.first_day) / 86400 + 1, false)
           FROM (SELECT min(day) AS first_day, max(day) AS last_day, count(DISTINCT day) AS days
                   FROM billing_charges WHERE contract_id = $1) s
          WHERE c.id = $1`,
        [contract.id],
      );
      await manager.query(ROLLUP_SQL('+'), [contract.id]);
    });
  }
}
