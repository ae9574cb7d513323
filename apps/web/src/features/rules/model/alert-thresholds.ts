/**
 * A rule set's alert percents as the card shows them and as the trader writes them (docs/PRODUCT.md, My Rules:
 * Alerts). The server checks the list (whole percents 1–100, ascending, each once, at most 10: docs/rules.md).
 */

/** 'Alert at 50 %, 80 %, 100 % of the daily and maximum loss', '… · also by email'; none: 'No alerts'. */
export function alertSettingsLine(thresholds: readonly number[], email: boolean): string {
  if (thresholds.length === 0) return 'No alerts for the daily and maximum loss';
  const line = `Alert at ${thresholds.map((t) => `${t} %`).join(', ')} of the daily and maximum loss`;
  return email ? `${line} · also by email` : line;
}

/**
 * '50, 80 %, 100' → [50, 80, 100]; an empty text is no percents. Null when a part is no number: any number passes
 * here, the server judges the range, order and whole percents.
 */
export function parsePercents(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((part) => part.replace(/%/g, '').trim())
    .filter((part) => part !== '');
  const numbers = parts.map(Number);
  return numbers.every((n) => Number.isFinite(n)) ? numbers : null;
}
