/*
 * Writes modules/import/parse/fixtures/mt5-report.xlsx (the MT5 XLSX fixture) from the synthetic report generator: 3 closed positions, a deposit,
 * UTF-16LE XML parts. Run from the repository root: `npx tsx apps/server/src/test/build-mt5-xlsx.ts`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mt5Xlsx } from './metatrader-reports';

const { bytes } = mt5Xlsx({
  positions: 3,
  seed: 11,
  account: '51009900',
  name: 'Xavier Lund',
  company: 'Fjord Markets AS',
});
writeFileSync(fileURLToPath(new URL('../modules/import/parse/fixtures/mt5-report.xlsx', import.meta.url)), bytes);
