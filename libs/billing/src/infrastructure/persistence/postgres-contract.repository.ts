import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { ContractRepository } from '../../application/ports/contract.repository.port';
import { Contract, DailyCharge } from '../../domain/contract';
import { contractChargeTotalsSql } from './charge-totals.sql';
import {
  contractReportDaysSql,
  lockReportDaysSql,
  refreshReportPrefixSql,
} from './report-days.sql';
import { contractStatementDaysSql } from './statement-days.sql';

@Injectable()
export class PostgresContractRepository extends ContractRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async replace(contract: Contract, charges: DailyCharge[]): Promise<void> {
    // Incremental summary updates (ON CONFLICT row locks) stay correct under concurrent
    // writers; the running totals need the summary locks (lockReportDaysSql) of the bucket
    // the contract leaves and of the one it joins, both taken before any summary row.
    await this.tx.transaction(async () => {
      await this.tx.rows(`SELECT 1 FROM billing_contracts WHERE id = $1 FOR UPDATE`, [contract.id]);
      await this.tx.rows(lockReportDaysSql, [
        contract.id,
        contract.userId,
        contract.kind,
        contract.endpointId,
        contract.workergroupId,
      ]);
      await this.tx.rows(contractReportDaysSql('-'), [contract.id]);
      await this.tx.rows(refreshReportPrefixSql, [contract.id]);
      await this.tx.rows(contractStatementDaysSql('-'), [contract.id]);
      await this.tx.rows(`DELETE FROM billing_charges WHERE contract_id = $1`, [contract.id]);
      await this.tx.rows(
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
        await this.tx.rows(
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
      await this.tx.rows(
        `UPDATE billing_contracts c
            SET first_charge_day = s.first_day, last_charge_day = s.last_day,
                charge_days_gapped = coalesce(s.days < (s.last_day - s.first_day) / 86400 + 1, false)
           FROM (SELECT min(day) AS first_day, max(day) AS last_day, count(DISTINCT day) AS days
                   FROM billing_charges WHERE contract_id = $1) s
          WHERE c.id = $1`,
        [contract.id],
      );
      for (const statement of contractChargeTotalsSql) await this.tx.rows(statement, [contract.id]);
      await this.tx.rows(contractReportDaysSql('+'), [contract.id]);
      await this.tx.rows(refreshReportPrefixSql, [contract.id]);
      await this.tx.rows(contractStatementDaysSql('+'), [contract.id]);
    });
  }
}
