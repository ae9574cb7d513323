import { describe, expect, it } from 'vitest';
import { importedTradeIds } from './imported-trade-ids';

const T1 = '2024-01-01T10:00:00.000000000Z';
const T2 = '2024-01-01T11:00:00.000000000Z';
const T3 = '2024-01-01T12:00:00.000000000Z';
/** The server's wall clock of a UTC time at +02:00. */
const srv = (utc: string) => new Date(Date.parse(utc) + 2 * 3_600_000).toISOString().slice(0, 19);
const at = (ticket: string, openTime: string) => ({ ticket, openTime, serverOpenTime: srv(openTime) });
const storedAt = (openTime: string) => ({ openTime, serverOpenTime: srv(openTime) });

describe('importedTradeIds', () => {
  it('adds the open time to a ticket only where it covers several trades of the import (netting reversal)', () => {
    expect(importedTradeIds([at('7', T1), at('8', T2), at('7', T3)])).toEqual([`7@${T1}`, '8', `7@${T3}`]);
  });

  it('reads open times in any RFC 3339 form as the stored one', () => {
    expect(
      importedTradeIds([
        { ticket: '7', openTime: '2024-01-01T12:00:00+02:00', serverOpenTime: '2024-01-01T12:00:00' },
        { ticket: '7', openTime: '2024-01-01T12:00:00Z', serverOpenTime: '2024-01-01T14:00:00' },
      ]),
    ).toEqual([`7@${T1}`, `7@${T3}`]);
  });

  it('keeps the id of a stored trade with the same ticket and open time, and suffixes a reused stored ticket', () => {
    const stored = new Map([
      ['7', storedAt(T1)],
      [`9@${T1}`, storedAt(T1)],
      [`9@${T2}`, storedAt(T2)],
    ]);
    expect(importedTradeIds([at('7', T1), at('7', T3), at('9', T2), at('9', T3), at('10', T3)], stored)).toEqual([
      '7',
      `7@${T3}`,
      `9@${T2}`,
      `9@${T3}`,
      '10',
    ]);
  });

  it('matches a stored trade by its ticket and server open time when a corrected clock moved its UTC time', () => {
    // Stored read at +02:00; the same trades read an hour earlier in UTC (+03:00, summer) keep their ids.
    const stored = new Map([
      ['7', storedAt(T2)],
      [`9@${T2}`, storedAt(T2)],
      [`9@${T3}`, storedAt(T3)],
    ]);
    const earlier = (ticket: string, openTime: string) => ({ ...at(ticket, openTime), openTime: T1 });
    expect(importedTradeIds([earlier('7', T2), earlier('9', T2), earlier('9', T3)], stored)).toEqual([
      '7',
      `9@${T2}`,
      `9@${T3}`,
    ]);
    // The same UTC time with another server time is another trade of a reused ticket.
    expect(importedTradeIds([earlier('8', T2)], new Map([['8', storedAt(T1)]]))).toEqual([`8@${T1}`]);
  });

  it('matches a stored row without a server time by its UTC open time', () => {
    expect(importedTradeIds([at('7', T1)], new Map([['7', { openTime: T1, serverOpenTime: null }]]))).toEqual(['7']);
  });
});
