import { describe, expect, it } from 'vitest';
import { contractSizesWith, explainReportTotal, planImport } from './import-plan';
import { parseReport } from './parse/index';
import { fixture } from './parse/test-helpers';

const plan = (name: string) =>
  planImport(parseReport(fixture(name)), {
    brokerTime: { rule: 'fixed', offset: '+03:00' },
    rememberedMode: null,
    sizes: contractSizesWith(new Map()),
  }).preview;

describe("the preview's check against the report's own total", () => {
  it("names the open position whose entry commission the report's total already counts", () => {
    const preview = plan('mt5-report-ja.html');
    expect(preview).toMatchObject({ netProfit: '2455.07', reportNetProfit: '2453.67', warnings: [] });
    expect(preview.reportTotalExplained).toBe(
      "The report's total (2453.67) also counts the commission already charged when a position still open was opened: position 70100452 (deal 52100024, line 178: -1.40). Open positions are imported once they close, so the imported trades add up to 2455.07.",
    );
  });

  it('explains nothing when the totals agree, and passes the warnings on', () => {
    expect(plan('mt5-report.html')).toMatchObject({ reportTotalExplained: null, warnings: [] });
    const unknown = plan('mt5-report-unknown-words.html');
    expect(unknown.reportTotalExplained).toBeNull();
    expect(unknown.warnings).toHaveLength(7);
  });

  it("points at the Deals table when it gives the report's total, and says so when no rows explain it", () => {
    const report = parseReport(fixture('mt5-report.html'));
    report.deals = { total: report.deals!.total, openEntries: [] };
    expect(explainReportTotal(report, '2455.07', '2453.67')).toBe(
      "The report's total (2453.67) is the sum of its Deals table; the imported closed positions add up to 2455.07. The -1.40 between them is in deals of positions that are not closed in this report or that were opened before its period.",
    );
    expect(explainReportTotal(report, '2455.07', '2400.00')).toContain(
      'differs from the imported closed trades (2455.07) by -55.07, and no rows of the report explain it',
    );
  });
});
