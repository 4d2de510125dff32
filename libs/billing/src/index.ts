export { BillingModule } from './billing.module';
export { ContractRepository } from './application/ports/contract.repository.port';
export type { Contract, DailyCharge } from './domain/contract';
