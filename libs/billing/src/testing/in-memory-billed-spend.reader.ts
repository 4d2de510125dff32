import { BilledSpendQuery, BilledSpendReader } from '../application/ports/billed-spend.reader.port';
import { contractOwnerKey } from '../domain/contract';
import { billedSum, InMemoryContracts } from './in-memory-contracts';

/** The billed sum over the contracts the fakes store, as PostgresBilledSpendReader reads the tables. */
export class InMemoryBilledSpendReader extends BilledSpendReader {
  constructor(private readonly contracts: InMemoryContracts) {
    super();
  }

  async billedBetween(query: BilledSpendQuery): Promise<string> {
    const amounts: string[] = [];
    for (const { contract, charges } of this.contracts.all()) {
      if (contractOwnerKey(contract) !== query.ownerKey) continue;
      if (query.label != null && contract.label !== query.label) continue;
      if (query.endpointId != null && contract.endpointId !== query.endpointId) continue;
      if (query.workergroupId != null && contract.workergroupId !== query.workergroupId) continue;
      for (const charge of charges)
        if (charge.day >= query.fromDay && charge.day < query.toDay) amounts.push(charge.amount);
    }
    return billedSum(amounts);
  }
}
