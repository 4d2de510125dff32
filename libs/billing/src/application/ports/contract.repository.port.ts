import { Contract, DailyCharge } from '../../domain/contract';

export abstract class ContractRepository {
  /**
   * Creates or replaces the contract and all of its daily charges, keeping the report's
   * derived data (charge-day summary, serverless rollup) in step, in the caller's unit of work.
   */
  abstract replace(contract: Contract, charges: DailyCharge[]): Promise<void>;
}
