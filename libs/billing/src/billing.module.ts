import { Module, OnModuleInit } from '@nestjs/common';
import { ErrorCatalog, FixtureRegistry, OperatorCommandRegistry } from '@app/platform';
import { ExportChargesUseCase } from './application/export-charges.use-case';
import { GetChargeStatementUseCase } from './application/get-charge-statement.use-case';
import { GetChargesReportUseCase } from './application/get-charges-report.use-case';
import { ChargeExportSource } from './application/ports/charge-export.source.port';
import { ChargeStatementReader } from './application/ports/charge-statement.reader.port';
import { ChargeReportReader } from './application/ports/charge-report.reader.port';
import { ContractRepository } from './application/ports/contract.repository.port';
import { DemoDataSeeder } from './application/ports/demo-data.seeder.port';
import { BILLING_ERRORS } from './domain/errors';
import { ChargesController } from './http/charges.controller';
import { ContractsFixtureLoader } from './infrastructure/contracts-fixture.loader';
import { PgChargeExportSource } from './infrastructure/pg-charge-export.source';
import { SqlChargeReportReader } from './infrastructure/sql-charge-report.reader';
import { SqlChargeStatementReader } from './infrastructure/sql-charge-statement.reader';
import { SqlDemoDataSeeder } from './infrastructure/sql-demo-data.seeder';
import { TypeormContractRepository } from './infrastructure/typeorm-contract.repository';
import { BillingCommands } from './operator/billing.commands';

/** The charges report, export and statement over contracts and their daily charges (docs/billing.md). */
@Module({
  controllers: [ChargesController],
  providers: [
    { provide: ChargeReportReader, useClass: SqlChargeReportReader },
    { provide: ChargeStatementReader, useClass: SqlChargeStatementReader },
    { provide: ChargeExportSource, useClass: PgChargeExportSource },
    { provide: ContractRepository, useClass: TypeormContractRepository },
    { provide: DemoDataSeeder, useClass: SqlDemoDataSeeder },
    GetChargesReportUseCase,
    GetChargeStatementUseCase,
    ExportChargesUseCase,
    ContractsFixtureLoader,
    BillingCommands,
  ],
  exports: [ContractRepository],
})
export class BillingModule implements OnModuleInit {
  constructor(
    errors: ErrorCatalog,
    private readonly fixtures: FixtureRegistry,
    private readonly operatorCommands: OperatorCommandRegistry,
    private readonly contractsFixture: ContractsFixtureLoader,
    private readonly commands: BillingCommands,
  ) {
    errors.register(BILLING_ERRORS);
  }

  onModuleInit(): void {
    this.fixtures.register(this.contractsFixture);
    for (const command of this.commands.commands()) this.operatorCommands.register(command);
  }
}
