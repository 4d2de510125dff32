import { budgetAlertContent } from './budget-alert-message-text';

describe('budgetAlertContent', () => {
  const notice = (name: string) => ({
    alert: {
      id: 9,
      budgetId: 3,
      threshold: 80,
      periodStart: new Date(Date.UTC(2026, 1, 1)),
      periodEnd: new Date(Date.UTC(2026, 2, 1)),
      spent: '81.250',
      amount: '100.000',
      createdAt: new Date(Date.UTC(2026, 1, 20)),
    },
    budget: {
      id: 3,
      name,
      period: 'month' as const,
      owner: { userId: 7, teamId: null },
      ownerKey: 7,
    },
  });

  it('says which budget reached which threshold, spent against amount, in which period', () => {
    const content = budgetAlertContent('GPU Marketplace', notice('training'));
    expect(content.subject).toBe('GPU Marketplace budget alert: "training" reached 80%');
    expect(content.text).toContain(
      'Your budget "training" reached 80% of its amount: $81.250 spent of $100.000 this month (2026-02-01 to 2026-02-28, UTC).',
    );
  });

  it('keeps what the owner typed on one line, in quotes it cannot close, escaped in HTML', () => {
    const content = budgetAlertContent('GPU Marketplace', notice('a"b\n<i>'));
    expect(content.subject).toBe('GPU Marketplace budget alert: "a\\"b?<i>" reached 80%');
    expect(content.html).toContain('&quot;a\\&quot;b?&lt;i&gt;&quot;');
    expect(content.html).not.toContain('<i>');
  });
});
