import { IMPORT_MAX_BYTES } from '@pipsense/contract';
import { formatBytes } from '../../../components/data/format';

export { formatBytes };

/** What the picker offers; the server detects the format from the content, whatever the name says. */
export const IMPORT_ACCEPT = '.htm,.html,.xlsx,.csv,.txt';

/** Why a file cannot be sent (checked in the browser before any byte goes out), or null when it can. */
export function fileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (file.size > IMPORT_MAX_BYTES)
    return (
      `${file.name} is ${formatBytes(file.size)}; the limit is ${formatBytes(IMPORT_MAX_BYTES)}. ` +
      'Export a shorter period from the terminal (set the date range of the account history), or split it into ' +
      'several reports and import each.'
    );
  if (file.size === 0) return `${file.name} is empty (0 bytes). Choose the report file the terminal saved.`;
  return null;
}

/** A file that may be a CSV by its name or type: then a saved column mapping can be chosen. */
export const looksLikeCsv = (file: Pick<File, 'name' | 'type'>) =>
  /\.(csv|txt)$/i.test(file.name) || file.type === 'text/csv';
