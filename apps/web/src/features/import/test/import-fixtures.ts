import { importUploadResponse, type ImportPreview, type ImportUploadResponse } from '@pipsense/contract';

export const UPLOAD = 'POST /api/v1/import/upload';
export const CONFIRM = 'POST /api/v1/import/confirm/:importId';
export const CANCEL = 'POST /api/v1/import/cancel/:importId';
export const MAPPINGS = '/api/v1/import/mappings';

/** An MT4 statement's preview: 12 closed trades, net 1,234.56 against the report's 1,234.50, US30 unknown. */
export function previewBody(overrides: Partial<ImportPreview> = {}): ImportUploadResponse {
  return importUploadResponse.parse({
    success: true,
    message: 'Report read: 12 closed trades.',
    importId: 'imp-7',
    format: 'mt4-html',
    preview: {
      account: {
        number: '51234567',
        name: 'Jane <b>Trader</b>',
        currency: 'USD',
        leverage: '1:500',
        broker: 'Raw Trading Ltd',
        server: 'ICMarketsSC-Demo',
        mode: null,
      },
      closedTrades: 12,
      openTrades: 2,
      balanceOperations: 3,
      skipped: [
        { row: 41, reason: 'cancelled order (buy limit)' },
        { row: 57, reason: 'unknown type "credit in"' },
      ],
      from: '2025-10-01T06:00:00Z',
      to: '2025-10-31T20:30:00Z',
      netProfit: '1234.56',
      reportNetProfit: '1234.50',
      brokerTime: 'fixed',
      serverUtcOffset: '+03:00',
      serverUtcOffsets: ['+03:00'],
      contractSizes: [
        { symbol: 'EURUSD.m', instrument: 'EUR_USD', contractSize: '100000', known: true },
        { symbol: 'US30', instrument: 'US30', contractSize: '1', known: false },
      ],
      sample: [
        {
          tradeId: '50123456',
          symbol: 'EURUSD.m',
          instrument: 'EUR_USD',
          side: 'sell',
          lots: '0.10',
          units: '-10000',
          openTime: '2025-10-01T06:00:00Z',
          closeTime: '2025-10-01T09:15:00Z',
          price: '1.17010',
          averageClosePrice: '1.16810',
          stopLossPrice: '1.17500',
          takeProfitPrice: null,
          commission: '-0.70',
          swap: '0.00',
          realizedPL: '20.00',
        },
        {
          tradeId: '50123499',
          symbol: 'US30',
          instrument: 'US30',
          side: 'buy',
          lots: '1.00',
          units: '1',
          openTime: '2025-10-02T14:00:00Z',
          closeTime: '2025-10-02T15:00:00Z',
          price: '42100.5',
          averageClosePrice: '42050.5',
          stopLossPrice: null,
          takeProfitPrice: null,
          commission: '0.00',
          swap: '-1.25',
          realizedPL: '-50.00',
        },
      ],
      ...overrides,
    },
  });
}

/** A file of `size` bytes as the browser reports it (the content stays tiny). */
export function reportFile(name: string, size?: number, type = 'text/html') {
  const file = new File(['<html>statement</html>'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}
