import { Contract, DailyCharge } from '../../domain/contract';

export abstract class ContractRepository {
  /**
   * Creates or replaces the contract and all of its daily charges, keeping the report's
   * derived data (charge-day summary, billing_report_days, billing_statement_days) in step,
   * in one transaction.
   */
  abstract replace(contract: Contract, charges: DailyCharge[]): Promise<void>;
}
