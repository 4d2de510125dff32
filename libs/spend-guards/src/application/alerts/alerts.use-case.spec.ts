import { RecordingMessageSender } from '@app/messaging/testing';
import { rejection } from '@app/platform/testing';
import { budgetAlertContent } from '../../domain/budget-alert-message-text';
import { BudgetOwner } from '../../domain/budget';
import { budgetsKit, testBudget } from '../../testing/spend-guards-kit';
import { DeliverBudgetAlertUseCase } from './deliver-budget-alert.use-case';
import { SweepBudgetAlertMailsUseCase } from './sweep-budget-alert-mails.use-case';

const ME = { userId: 7, teamId: null };
const first = { attempt: 1, maxAttempts: 5 };
// 2026-01-02 03:04:05 UTC: the kit's clock, in January's period.
const JAN = { start: new Date(Date.UTC(2026, 0, 1)), end: new Date(Date.UTC(2026, 1, 1)) };

describe('EvaluateBudgetsUseCase', () => {
  it('makes one alert per threshold reached, with its webhook event, and queues mails after the commit', async () => {
    const kit = budgetsKit();
    const budget = await kit.budgets.insert(testBudget({ amount: '100.000' }));
    kit.spend.set(7, '85.000');
    const created = await kit.evaluate.execute(7);
    expect(created.map((alert) => alert.threshold)).toEqual([50, 80]);
    expect(created[0]).toEqual({
      id: expect.any(Number),
      budgetId: budget.id,
      threshold: 50,
      periodStart: JAN.start,
      periodEnd: JAN.end,
      spent: '85.000',
      amount: '100.000',
      createdAt: new Date(kit.clock.nowMs()),
    });
    expect(kit.mails.jobs).toEqual(created.map((alert) => ({ alertId: alert.id })));
    expect(kit.webhooks.recorded).toEqual(
      created.map((alert) => ({
        ownerKey: 7,
        deliveryId: expect.any(String),
        event: {
          id: `budget-alert-${alert.id}`,
          type: 'budget.threshold_crossed',
          createdAt: alert.createdAt,
          data: {
            budget_id: budget.id,
            budget_name: 'first',
            threshold_percent: alert.threshold,
            period: 'month',
            period_start: JAN.start.getTime() / 1000,
            period_end: JAN.end.getTime() / 1000,
            amount: '100.000',
            spent: '85.000',
            owner: { user_id: 7, team_id: null },
          },
        },
      })),
    );
    expect(kit.webhooks.dispatched).toEqual(kit.webhooks.recorded.map((r) => r.deliveryId));
    expect(kit.budgets.locked).toEqual([7]);
  });

  it('never alerts a threshold twice in a period, and again in the next period', async () => {
    const kit = budgetsKit();
    await kit.budgets.insert(testBudget());
    kit.spend.set(7, '60.000');
    expect(await kit.evaluate.execute(7)).toHaveLength(1);
    expect(await kit.evaluate.execute(7)).toEqual([]);
    kit.spend.set(7, '100.000');
    expect((await kit.evaluate.execute(7)).map((alert) => alert.threshold)).toEqual([80, 100]);
    expect(kit.mails.jobs).toHaveLength(3);
    kit.clock.set(Date.UTC(2026, 1, 3));
    expect((await kit.evaluate.execute(7)).map((alert) => alert.threshold)).toEqual([50, 80, 100]);
  });

  it("keeps to the owner's budgets and each budget's scope", async () => {
    const kit = budgetsKit();
    await kit.budgets.insert(testBudget({ owner: { userId: null, teamId: 3 }, period: 'day' }));
    kit.spend.set(7, '1000.000');
    expect(await kit.evaluate.execute(7)).toEqual([]);
    kit.spend.set(-3, '50.000');
    const [alert] = await kit.evaluate.execute(-3);
    expect(alert.periodStart).toEqual(new Date(Date.UTC(2026, 0, 2)));
    expect(kit.webhooks.recorded[0].event.data.owner).toEqual({ user_id: null, team_id: 3 });
  });

  it('a queue that fails after the commit leaves the alert and its pending mail for the sweep', async () => {
    const kit = budgetsKit();
    await kit.budgets.insert(testBudget());
    kit.spend.set(7, '50.000');
    kit.mails.failing = true;
    const [alert] = await kit.evaluate.execute(7);
    expect(kit.mails.jobs).toEqual([]);
    kit.mails.failing = false;
    const sweep = new SweepBudgetAlertMailsUseCase(kit.alerts, kit.mails, kit.settings, kit.clock);
    expect(await sweep.execute()).toBe(0);
    kit.clock.advance(kit.settings.alertRetrySeconds * 1000 + 1);
    expect(await sweep.execute()).toBe(1);
    expect(kit.mails.jobs).toEqual([{ alertId: alert.id }]);
  });

  it('an evaluation that fails leaves no alert and queues nothing', async () => {
    const kit = budgetsKit();
    await kit.budgets.insert(testBudget());
    await kit.budgets.insert(testBudget({ name: 'second' }));
    kit.spend.set(7, '50.000');
    const insertOnce = kit.alerts.insertOnce.bind(kit.alerts);
    let calls = 0;
    kit.alerts.insertOnce = async (alert) => {
      calls += 1;
      if (calls === 2) throw new Error('connection lost');
      return insertOnce(alert);
    };
    await expect(kit.evaluate.execute(7)).rejects.toThrow('connection lost');
    expect(await kit.alerts.pendingMailSince(new Date(Date.UTC(2030, 0, 1)), 10)).toEqual([]);
    expect(kit.mails.jobs).toEqual([]);
  });
});

describe('SweepBudgetsUseCase', () => {
  it('evaluates every owner with a budget, one failing owner not stopping the others', async () => {
    const kit = budgetsKit();
    await kit.budgets.insert(testBudget());
    await kit.budgets.insert(testBudget({ owner: { userId: null, teamId: 3 } }));
    kit.spend.set(7, '100.000');
    kit.spend.set(-3, '50.000');
    expect(await kit.sweep.execute()).toBe(4);
    expect(await kit.sweep.execute()).toBe(0);
    expect(kit.metrics.total('budget_alerts_total', { trigger: 'sweep' })).toBe(4);
    expect(kit.metrics.total('budget_sweep_passes_total')).toBe(2);
    kit.spend.failing = new Error('billing away');
    expect(await kit.sweep.execute()).toBe(0);
  });
});

describe('ListBudgetAlertsUseCase', () => {
  it("lists a budget's alerts newest first, for its owner only", async () => {
    const kit = budgetsKit();
    const budget = await kit.budgets.insert(testBudget());
    kit.spend.set(7, '50.000');
    await kit.evaluate.execute(7);
    kit.clock.advance(1000);
    kit.spend.set(7, '80.000');
    await kit.evaluate.execute(7);
    expect((await kit.listAlerts.execute(ME, budget.id)).map((a) => a.threshold)).toEqual([80, 50]);
    expect(
      await rejection(kit.listAlerts.execute({ userId: 7, teamId: 3 }, budget.id)),
    ).toMatchObject({ code: 'budget_not_found' });
  });
});

describe('DeliverBudgetAlertUseCase', () => {
  async function setup(owner: BudgetOwner = { userId: 7, teamId: null }) {
    const kit = budgetsKit();
    const provider = new RecordingMessageSender();
    const deliver = new DeliverBudgetAlertUseCase(
      kit.alerts,
      kit.recipients,
      provider,
      kit.settings,
      kit.clock,
    );
    const budget = await kit.budgets.insert(testBudget({ owner }));
    kit.spend.set(budget.ownerKey, '50.000');
    const [alert] = await kit.evaluate.execute(budget.ownerKey);
    return { kit, provider, deliver, budget, alert };
  }

  it("mails the owner under the alert's one key per recipient, then marks it sent", async () => {
    const { kit, provider, deliver, budget, alert } = await setup();
    kit.recipients.users.set(7, 'ada@example.test');
    expect(await deliver.execute({ alertId: alert.id }, first)).toBe('sent');
    expect(provider.attempts).toEqual([
      {
        message: {
          channel: 'email',
          destination: 'ada@example.test',
          content: budgetAlertContent('GPU Marketplace', { alert, budget }),
          kind: 'notice',
          idempotencyKey: `budget-alert-${alert.id}-to-7`,
          requesterDecides: false,
        },
        ...first,
      },
    ]);
    expect(await kit.alerts.findPendingMail(alert.id)).toBeNull();
    expect(await deliver.execute({ alertId: alert.id }, first)).toBe('gone');
    expect(provider.attempts).toHaveLength(1);
  });

  it("mails a team's owner and managers, each once", async () => {
    const { kit, provider, deliver, alert } = await setup({ userId: null, teamId: 3 });
    kit.recipients.teams.set(3, [
      { userId: 7, email: 'owner@example.test' },
      { userId: 8, email: 'manager@example.test' },
    ]);
    expect(await deliver.execute({ alertId: alert.id }, first)).toBe('sent');
    expect(provider.attempts.map((a) => [a.message.destination, a.message.idempotencyKey])).toEqual(
      [
        ['owner@example.test', `budget-alert-${alert.id}-to-7`],
        ['manager@example.test', `budget-alert-${alert.id}-to-8`],
      ],
    );
  });

  it('a retryable failure is thrown and the mail stays pending', async () => {
    const { kit, provider, deliver, alert } = await setup();
    kit.recipients.users.set(7, 'ada@example.test');
    provider.next = new Error('SMTP busy');
    await expect(deliver.execute({ alertId: alert.id }, first)).rejects.toThrow('SMTP busy');
    expect(await kit.alerts.findPendingMail(alert.id)).not.toBeNull();
  });

  it('nobody to mail, or refused for good: abandoned, no longer pending', async () => {
    const { kit, provider, deliver, alert } = await setup();
    expect(await deliver.execute({ alertId: alert.id }, first)).toBe('abandoned');
    expect(provider.attempts).toEqual([]);
    expect(await kit.alerts.findPendingMail(alert.id)).toBeNull();

    const other = await setup();
    other.kit.recipients.users.set(7, 'ada@example.test');
    other.provider.next = { outcome: 'abandoned', provider: 'smtp', code: 'email_rejected' };
    expect(await other.deliver.execute({ alertId: other.alert.id }, first)).toBe('abandoned');
    expect(await other.kit.alerts.findPendingMail(other.alert.id)).toBeNull();
  });
});
