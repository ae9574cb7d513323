import { describe, expect, it } from 'vitest';
import {
  type DailyCloses,
  lastCompleteDay,
  moneyFigure,
  noDailyRates,
  prepareConversion,
  ratesFromCloses,
  totalAcrossCurrencies,
} from './currency-totals';

/** An in-memory candle store: `closes[instrument][day]`, counting the reads. */
function fakeCloses(closes: Record<string, Record<string, string>>): DailyCloses & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    close: (instrument, day) => {
      reads.push(`${instrument}@${day}`);
      return Promise.resolve(closes[instrument]?.[day] ?? null);
    },
  };
}

describe('DailyRates from daily closes', () => {
  const closes = fakeCloses({
    USD_JPY: { '2025-03-14': '150.000', '2025-03-17': '149.250' },
    EUR_USD: { '2025-03-14': '1.08500' },
  });
  const rates = ratesFromCloses(closes);

  it('reads the direct pair', async () => {
    expect(await rates.rate('USD', 'JPY', '2025-03-14')).toBe('150.000');
  });

  it('inverts the quoted pair', async () => {
    expect(await rates.rate('JPY', 'USD', '2025-03-14')).toBe('0.00666666666666666667');
  });

  it('crosses through USD', async () => {
    // EUR → USD (1.085) × USD → JPY (150) = 162.75
    expect(Number(await rates.rate('EUR', 'JPY', '2025-03-14'))).toBe(162.75);
  });

  it('is null when a day or a pair is missing', async () => {
    expect(await rates.rate('USD', 'JPY', '2025-03-15')).toBeNull();
    expect(await rates.rate('GBP', 'JPY', '2025-03-14')).toBeNull();
  });
});

describe('the currency rule', () => {
  const closes = fakeCloses({ USD_JPY: { '2025-03-14': '150.000', '2025-03-17': '149.250' } });
  const rates = ratesFromCloses(closes);
  const usdJpy = [
    { currency: 'USD', amount: '1200.5000', day: '2025-03-14' },
    { currency: 'JPY', amount: '-45000', day: '2025-03-14' },
    { currency: 'JPY', amount: '-337286.63', day: '2025-03-17' },
  ];

  it('never adds USD and JPY as plain numbers', async () => {
    const plain = 1200.5 - 45000 - 337286.63;
    for (const source of [rates, noDailyRates]) {
      const figure = await totalAcrossCurrencies('USD', usdJpy, source);
      expect(figure.mode).not.toBe('single');
      if (figure.mode === 'converted') expect(Number(figure.amount)).not.toBeCloseTo(plain, 0);
    }
  });

  it('converts at each close day’s rate, equal to the hand-converted total to the cent', async () => {
    const figure = await totalAcrossCurrencies('USD', usdJpy, rates);
    // By hand: 1,200.50 USD; −45,000 JPY / 150 = −300.00 USD; −337,286.63 JPY / 149.25 = −(2,260 − 18.37 / 149.25)
    // = −2,259.87692… USD. 1,200.50 − 300.00 − 2,259.8769 = −1,359.3769 → −1,359.38 USD.
    expect(figure).toEqual({ mode: 'converted', currency: 'USD', amount: '-1359.3769', from: ['JPY', 'USD'] });
  });

  it('converts into JPY at the same rates', async () => {
    const figure = await totalAcrossCurrencies('JPY', usdJpy, rates);
    // 1,200.50 USD × 150 = 180,075 JPY; − 45,000 − 337,286.63 = −202,211.63 JPY.
    expect(figure).toMatchObject({ mode: 'converted', currency: 'JPY', amount: '-202211.6300' });
  });

  it('lists per currency when any rate is missing', async () => {
    const missing = [...usdJpy, { currency: 'JPY', amount: '100', day: '2025-03-18' }];
    expect(await totalAcrossCurrencies('USD', missing, rates)).toEqual({
      mode: 'listed',
      byCurrency: [
        { currency: 'JPY', amount: '-382186.63' },
        { currency: 'USD', amount: '1200.5000' },
      ],
    });
    expect(await totalAcrossCurrencies('USD', usdJpy, noDailyRates)).toMatchObject({ mode: 'listed' });
    // The rate it lacks, for a listed view kept to ask for once again later.
    expect((await prepareConversion('USD', missing, rates)).missing).toEqual({ currency: 'JPY', day: '2025-03-18' });
    expect((await prepareConversion('USD', usdJpy, rates)).missing).toBeNull();
  });

  it('keeps one currency as it is, whatever the home currency, without reading a rate', async () => {
    const before = closes.reads.length;
    const figure = await totalAcrossCurrencies(
      'EUR',
      [
        { currency: 'USD', amount: '10.25', day: '2025-03-14' },
        { currency: 'USD', amount: '-3.1', day: '2025-03-17' },
      ],
      rates,
    );
    expect(figure).toEqual({ mode: 'single', currency: 'USD', amount: '7.15' });
    expect(closes.reads.length).toBe(before);
  });

  it('looks each currency and day up once', async () => {
    const counted = fakeCloses({ USD_JPY: { '2025-03-14': '150' } });
    const items = Array.from({ length: 50 }, () => ({ currency: 'JPY', amount: '150', day: '2025-03-14' }));
    const conversion = await prepareConversion(
      'USD',
      [...items, { currency: 'USD', day: '2025-03-14' }],
      ratesFromCloses(counted),
    );
    // The view spans two currencies: a part of it in JPY alone is converted too, so that the parts add up.
    expect(moneyFigure(conversion, items)).toMatchObject({ mode: 'converted', currency: 'USD', amount: '50.0000' });
    expect(moneyFigure(conversion, [...items, { currency: 'USD', amount: '1', day: '2025-03-14' }])).toMatchObject({
      mode: 'converted',
      amount: '51.0000',
    });
    expect(counted.reads).toEqual(['JPY_USD@2025-03-14', 'USD_JPY@2025-03-14']);
  });

  it('converts what is open at the last complete day', () => {
    expect(lastCompleteDay(new Date('2025-03-17T10:00:00Z'))).toBe('2025-03-16');
  });
});
