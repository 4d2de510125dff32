import { ManualClock, RecordingMetrics, SnapshotUnitOfWork } from '@app/platform/testing';
import { EvaluateBudgetsUseCase } from '../application/alerts/evaluate-budgets.use-case';
import { ListBudgetAlertsUseCase } from '../application/alerts/list-budget-alerts.use-case';
import { SweepBudgetsUseCase } from '../application/alerts/sweep-budgets.use-case';
import { BudgetInput } from '../application/budgets/budget-input.service';
import { CreateBudgetUseCase } from '../application/budgets/create-budget.use-case';
import { DeleteBudgetUseCase } from '../application/budgets/delete-budget.use-case';
import { GetBudgetUseCase } from '../application/budgets/get-budget.use-case';
import { ListBudgetsUseCase } from '../application/budgets/list-budgets.use-case';
import { UpdateBudgetUseCase } from '../application/budgets/update-budget.use-case';
import { NewBudget } from '../application/ports/budget.repository.port';
import { BudgetSettings } from '../domain/spend-guards-settings';
import {
  InMemoryAlertRecipients,
  InMemoryBudgetAlertMailQueue,
  InMemoryBudgetAlertRepository,
  StubBudgetSpendReader,
} from './in-memory-budget-alerts';
import { InMemoryBudgetRepository } from './in-memory-budgets';
import { InMemoryWebhookOutbox } from './in-memory-webhook-outbox';

/** A monthly budget of user 7 named 'first', 100.000 with the default thresholds, unless `fields` say otherwise. */
export function testBudget(fields: Partial<NewBudget> = {}): NewBudget {
  return {
    owner: { userId: 7, teamId: null },
    name: 'first',
    amount: '100.000',
    period: 'month',
    scope: { label: null, endpointId: null, workergroupId: null },
    thresholds: [50, 80, 100],
    createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    ...fields,
  };
}

/**
 * The budget fakes wired together, as the module wires the real adapters, on a clock of
 * 2026-01-02 03:04:05 UTC: the spend is a stub the test sets per owner key.
 */
export function budgetsKit(clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5))) {
  const budgets = new InMemoryBudgetRepository();
  const alerts = new InMemoryBudgetAlertRepository(budgets);
  const spend = new StubBudgetSpendReader();
  const mails = new InMemoryBudgetAlertMailQueue();
  const webhooks = new InMemoryWebhookOutbox();
  const recipients = new InMemoryAlertRecipients();
  const settings = new BudgetSettings();
  const uow = new SnapshotUnitOfWork();
  uow.join(budgets, alerts);
  const input = new BudgetInput();
  const metrics = new RecordingMetrics();
  const evaluate = new EvaluateBudgetsUseCase(
    budgets,
    alerts,
    spend,
    mails,
    webhooks,
    uow,
    clock,
    metrics,
  );
  return {
    clock,
    budgets,
    alerts,
    spend,
    mails,
    webhooks,
    recipients,
    settings,
    metrics,
    uow,
    create: new CreateBudgetUseCase(budgets, input, uow, clock),
    list: new ListBudgetsUseCase(budgets),
    get: new GetBudgetUseCase(budgets, spend, clock),
    update: new UpdateBudgetUseCase(budgets, input, clock),
    remove: new DeleteBudgetUseCase(budgets),
    listAlerts: new ListBudgetAlertsUseCase(budgets, alerts),
    evaluate,
    sweep: new SweepBudgetsUseCase(budgets, evaluate, metrics),
  };
}

/** The generated kit's name. */
export const spendGuardsKit = budgetsKit;
