import { describe, expect, it } from 'vitest';
import { csvField, csvHeader, csvRecord, exportFileName, localTime } from './trade-export';

describe('the CSV encoder (RFC 4180)', () => {
  it('leaves plain fields alone and quotes those with a comma, a quote, CR or LF, doubling quotes', () => {
    expect(csvField('EUR_USD')).toBe('EUR_USD');
    expect(csvField('-12.3400')).toBe('-12.3400');
    expect(csvField(1.2)).toBe('1.2');
    expect(csvField(null)).toBe('');
    expect(csvField('')).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' spaced ')).toBe(' spaced ');
  });

  it('ends each record with CRLF', () => {
    expect(csvRecord(['a', 'b,c', null, 3])).toBe('a,"b,c",,3\r\n');
  });

  it('writes local wall-clock times and the file name in the trader’s zone', () => {
    expect(localTime('2025-01-04T01:30:00.123456789Z', 'America/New_York')).toBe('2025-01-03 20:30:00');
    expect(localTime('2025-07-01T12:00:00.000000000Z', 'Europe/London')).toBe('2025-07-01 13:00:00');
    expect(localTime(null, 'UTC')).toBe('');
    expect(exportFileName(new Date('2025-03-01T02:00:00Z'), 'America/Los_Angeles')).toBe(
      'pipsense-trades-2025-02-28.csv',
    );
  });

  it('counts each trade’s images in an Attachments column after the note', () => {
    const header = csvHeader().trimEnd().split(',');
    expect(header.slice(header.indexOf('Note'), header.indexOf('Note') + 2)).toEqual(['Note', 'Attachments']);
  });
});
