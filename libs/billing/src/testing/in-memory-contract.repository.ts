import { ContractRepository } from '../application/ports/contract.repository.port';
import { Contract, DailyCharge } from '../domain/contract';
import { InMemoryContracts } from './in-memory-contracts';

/** Writes the contracts the billing fakes read, as PostgresContractRepository writes the tables. */
export class InMemoryContractRepository extends ContractRepository {
  constructor(readonly contracts = new InMemoryContracts()) {
    super();
  }

  async replace(contract: Contract, charges: DailyCharge[]): Promise<void> {
    this.contracts.add(contract, charges);
  }
}
