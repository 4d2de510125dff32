import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { ChargesWritten } from '../../application/charges-written.service';
import { ContractRepository } from '../../application/ports/contract.repository.port';
import { Contract, contractOwnerKey, DailyCharge } from '../../domain/contract';
import { contractChargeTotalsSql } from './charge-totals.sql';
import {
  contractReportDaysSql,
  lockReportDaysSql,
  refreshReportPrefixSql,
} from './report-days.sql';
import {
  applyStatementDeltaSql,
  contractStatementLinesSql,
  StatementLines,
  statementDeltaParams,
} from './statement-days.sql';

/** Advisory lock space of contract writes (two-key form: apart from the summaries' keys). */
const CONTRACT_WRITE_LOCK_SPACE = 0x7fa0_0002;

@Injectable()
export class PostgresContractRepository extends ContractRepository {
  constructor(
    private readonly tx: TransactionalEntityManager,
    private readonly chargesWritten: ChargesWritten,
  ) {
    super();
  }

  async replace(contract: Contract, charges: DailyCharge[]): Promise<void> {
    // Writers of one contract id take turns, from the first write on: a row lock would not
    // exist yet for a new id, and two first writes would both go ahead. The running totals
    // need the summary locks (lockReportDaysSql) of the bucket the contract leaves and of
    // the one it joins, both taken before any summary row; the statement summary's rows,
    // shared with writers of other buckets, change in one ordered statement at the end.
    await this.tx.transaction(async () => {
      await this.tx.rows(`SELECT pg_advisory_xact_lock($1, $2)`, [
        CONTRACT_WRITE_LOCK_SPACE,
        contract.id,
      ]);
      await this.tx.rows(lockReportDaysSql, [
        contract.id,
        contractOwnerKey(contract),
        contract.kind,
        contract.endpointId,
        contract.workergroupId,
      ]);
      await this.tx.rows(contractReportDaysSql('-'), [contract.id]);
      await this.tx.rows(refreshReportPrefixSql, [contract.id]);
      const earlierLines = await this.tx.rows<StatementLines>(contractStatementLinesSql, [
        contract.id,
      ]);
      await this.tx.rows(`DELETE FROM billing_charges WHERE contract_id = $1`, [contract.id]);
      await this.tx.rows(
        `INSERT INTO billing_contracts
           (id, user_id, team_id, kind, start_ts, end_ts, label, template_id, endpoint_id,
            workergroup_id)
         VALUES ($1, $2, $10, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (id) DO UPDATE SET
           user_id = EXCLUDED.user_id, team_id = EXCLUDED.team_id, kind = EXCLUDED.kind, start_ts = EXCLUDED.start_ts,
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
          contract.teamId ?? null,
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
      await this.tx.rows(applyStatementDeltaSql, statementDeltaParams(contract.id, earlierLines));
      // Once the write (or the unit of work it joined) committed: the owner's listeners
      // (budgets) read the new charges, once per owner however many of its contracts the
      // unit of work wrote. A contract leaving an owner only lowers that owner's spend,
      // which crosses no threshold.
      const ownerKey = contractOwnerKey(contract);
      this.tx.afterCommitOnce(`charges-written:${ownerKey}`, () =>
        this.chargesWritten.announce(ownerKey),
      );
    });
  }
}
