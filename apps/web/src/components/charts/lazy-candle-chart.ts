import { lazyChunk } from '../errors/lazy-chunk';

/** The candle chart, loaded on first use: the charting library is large and only some screens draw candles. */
export const LazyCandleChart = lazyChunk('candle-chart', () => import('./candle-chart'), 'CandleChart');
