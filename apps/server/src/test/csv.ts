/* The CSV export's reader for tests: route tests and the end-to-end export check parse what the server wrote. */

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks); throws unless the text ends with CRLF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length > 0) throw new Error('The CSV does not end with CRLF after its last record.');
  return rows;
}
