import { Module, OnModuleInit } from '@nestjs/common';
import {
  Environment,
  ErrorCatalog,
  FixtureRegistry,
  OperatorCommandRegistry,
  PlatformConfig,
  RateLimitRegistry,
} from '@app/platform';
import { BilledSpend } from './application/billed-spend.service';
import { ChargesWritten } from './application/charges-written.service';
import { BilledSpendReader } from './application/ports/billed-spend.reader.port';
import { ExportChargesUseCase } from './application/export-charges.use-case';
import { ExportSlots } from './application/export-slots.service';
import { GetChargeStatementUseCase } from './application/get-charge-statement.use-case';
import { GetChargesReportUseCase } from './application/get-charges-report.use-case';
import { ChargeExportSource } from './application/ports/charge-export.source.port';
import { ChargeStatementReader } from './application/ports/charge-statement.reader.port';
import { ChargeReportReader } from './application/ports/charge-report.reader.port';
import { ContractRepository } from './application/ports/contract.repository.port';
import { DemoDataSeeder } from './application/ports/demo-data.seeder.port';
import { ExportSettings } from './domain/charge-export';
import { BILLING_ERRORS } from './domain/errors';
import { ChargesController } from './http/charges.controller';
import { ContractsFixtureLoader } from './infrastructure/contracts-fixture.loader';
import { loadExportSettings } from './infrastructure/export-settings';
import { PostgresBilledSpendReader } from './infrastructure/persistence/postgres-billed-spend.reader';
import { PostgresChargeExportSource } from './infrastructure/persistence/postgres-charge-export.source';
import { PostgresChargeReportReader } from './infrastructure/persistence/postgres-charge-report.reader';
import { PostgresChargeStatementReader } from './infrastructure/persistence/postgres-charge-statement.reader';
import { PostgresContractRepository } from './infrastructure/persistence/postgres-contract.repository';
import { PostgresDemoDataSeeder } from './infrastructure/persistence/postgres-demo-data.seeder';
import { BillingCommands } from './operator/billing.commands';
import { BILLING_RATE_LIMITS } from './http/rate-limits';

/** The charges report, export and statement over contracts and their daily charges (docs/billing.md). */
@Module({
  controllers: [ChargesController],
  providers: [
    {
      provide: ExportSettings,
      inject: [Environment, PlatformConfig],
      useFactory: loadExportSettings,
    },
    ExportSlots,
    { provide: ChargeReportReader, useClass: PostgresChargeReportReader },
    { provide: ChargeStatementReader, useClass: PostgresChargeStatementReader },
    { provide: ChargeExportSource, useClass: PostgresChargeExportSource },
    { provide: ContractRepository, useClass: PostgresContractRepository },
    { provide: DemoDataSeeder, useClass: PostgresDemoDataSeeder },
    { provide: BilledSpendReader, useClass: PostgresBilledSpendReader },
    BilledSpend,
    ChargesWritten,
    GetChargesReportUseCase,
    GetChargeStatementUseCase,
    ExportChargesUseCase,
    ContractsFixtureLoader,
    BillingCommands,
  ],
  exports: [ContractRepository, BilledSpend, ChargesWritten],
})
export class BillingModule implements OnModuleInit {
  constructor(
    errors: ErrorCatalog,
    rateLimits: RateLimitRegistry,
    private readonly fixtures: FixtureRegistry,
    private readonly operatorCommands: OperatorCommandRegistry,
    private readonly contractsFixture: ContractsFixtureLoader,
    private readonly commands: BillingCommands,
  ) {
    errors.register(BILLING_ERRORS);
    rateLimits.register(BILLING_RATE_LIMITS);
  }

  onModuleInit(): void {
    this.fixtures.register(this.contractsFixture);
    for (const command of this.commands.commands()) this.operatorCommands.register(command);
  }
}
