import { StoredContracts } from './billing-builders';
import { InMemoryBilledSpendReader } from './in-memory-billed-spend.reader';
import { InMemoryChargeExportSource } from './in-memory-charge-export.source';
import { InMemoryChargeReportReader } from './in-memory-charge-report.reader';
import { InMemoryChargeStatementReader } from './in-memory-charge-statement.reader';
import { InMemoryContractRepository } from './in-memory-contract.repository';
import { InMemoryContracts } from './in-memory-contracts';

/**
 * The billing fakes wired together, as the module wires the real adapters: the report,
 * statement and export read the contracts `contracts.replace` writes, as the PostgreSQL
 * adapters read the tables PostgresContractRepository writes.
 */
export function billingKit() {
  const stored = new InMemoryContracts();
  return {
    contracts: new InMemoryContractRepository(stored),
    reports: new InMemoryChargeReportReader(stored),
    statements: new InMemoryChargeStatementReader(stored),
    exports: new InMemoryChargeExportSource(stored),
    spend: new InMemoryBilledSpendReader(stored),
  };
}

export type BillingKit = ReturnType<typeof billingKit>;

/** Runs a billing contract suite on the fakes of a new kit, `fake` picking the port's fake. */
export function onFakes<Fake extends object>(
  firstId: number,
  suite: (setup: () => Promise<StoredContracts & Fake>) => void,
  fake: (kit: BillingKit) => Fake,
): void {
  suite(async () => {
    const kit = billingKit();
    const store = (...row: Parameters<StoredContracts['store']>) => kit.contracts.replace(...row);
    return { ...fake(kit), store, main: 1, other: 2, team: 1, firstId };
  });
}
