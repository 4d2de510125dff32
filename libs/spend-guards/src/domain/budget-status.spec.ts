import { periodAt } from './budget-period';
import { budgetStatus, crossedThresholds, linearForecast, thresholdReached } from './budget-status';

const DAY = 86_400_000;

describe('thresholdReached', () => {
  it('is spent >= amount * threshold / 100, exactly', () => {
    expect(thresholdReached('100.000', '50.000', 50)).toBe(true);
    expect(thresholdReached('100.000', '49.999', 50)).toBe(false);
    expect(thresholdReached('0.003', '0.001', 34)).toBe(false);
    expect(thresholdReached('0.003', '0.001', 33)).toBe(true);
    expect(thresholdReached('100.000', '1000.000', 1000)).toBe(true);
  });

  it('lists the thresholds reached, ascending', () => {
    const budget = { amount: '200.000', thresholds: [50, 80, 100, 150] };
    expect(crossedThresholds(budget, '0.000')).toEqual([]);
    expect(crossedThresholds(budget, '160.000')).toEqual([50, 80]);
    expect(crossedThresholds(budget, '200.000')).toEqual([50, 80, 100]);
  });
});

describe('linearForecast', () => {
  const march = periodAt('month', Date.UTC(2026, 2, 1));

  it('extends the spent over the elapsed part to the whole period', () => {
    // 31 days; 10 days elapsed.
    expect(linearForecast('100.000', march, Date.UTC(2026, 2, 11))).toBe('310.000');
    // Rounded half away from zero to 3 decimals: 1 * 31 / 3 = 10.3333...
    expect(linearForecast('1.000', march, Date.UTC(2026, 2, 4))).toBe('10.333');
    expect(linearForecast('2.000', march, Date.UTC(2026, 2, 4))).toBe('20.667');
  });

  it('is the spent itself at the very start and at the end', () => {
    expect(linearForecast('5.000', march, march.start.getTime())).toBe('5.000');
    expect(linearForecast('5.000', march, march.end.getTime() + DAY)).toBe('5.000');
  });

  it('knows a leap February has 29 days', () => {
    const february = periodAt('month', Date.UTC(2028, 1, 10));
    expect(linearForecast('10.000', february, Date.UTC(2028, 1, 11))).toBe('29.000');
  });
});

describe('budgetStatus', () => {
  it('answers spent, remaining (negative once overspent), forecast and crossed', () => {
    const week = periodAt('week', Date.UTC(2026, 2, 4));
    const status = budgetStatus(
      { amount: '70.000', thresholds: [50, 80, 100] },
      week,
      '63.000',
      Date.UTC(2026, 2, 5),
    );
    expect(status).toEqual({
      period: week,
      spent: '63.000',
      remaining: '7.000',
      forecast: '147.000',
      forecastMethod: 'linear',
      crossed: [50, 80],
    });
    expect(
      budgetStatus({ amount: '10.000', thresholds: [100] }, week, '12.500', Date.UTC(2026, 2, 5))
        .remaining,
    ).toBe('-2.500');
  });
});
