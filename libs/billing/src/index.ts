export { BillingModule } from './billing.module';
export { ContractRepository } from './application/ports/contract.repository.port';
export type { Contract, DailyCharge } from './domain/contract';
export { BilledSpend } from './application/billed-spend.service';
export type { BilledSpendQuery } from './application/ports/billed-spend.reader.port';
export { ChargesWritten, type ChargesWrittenListener } from './application/charges-written.service';
export { chargeOwnerKey, type ChargeOwner } from './domain/contract';
