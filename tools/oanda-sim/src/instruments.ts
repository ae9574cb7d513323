// The six instruments the simulator trades, with OANDA's published properties (pip location,
// display precision, margin rates as in the reference fixtures) and the parameters of their
// simulated price paths.

export interface InstrumentSpec {
  readonly index: number;
  readonly name: string;
  readonly type: 'CURRENCY' | 'METAL';
  readonly displayName: string;
  readonly base: string;
  readonly quote: string;
  readonly pipLocation: number;
  readonly displayPrecision: number;
  /** 10^displayPrecision: ticks per unit of price. */
  readonly scale: number;
  readonly marginRate: string;
  readonly minimumTrailingStopDistance: string;
  readonly maximumTrailingStopDistance: string;
  readonly maximumOrderUnits: string;
  readonly financing: { readonly longRate: string; readonly shortRate: string };
  /** Long-run level the daily path reverts to. */
  readonly referencePrice: number;
  /** Log-price standard deviation of one trading day. */
  readonly dailyVol: number;
  /** Log-price standard deviation of one minute in an active session. */
  readonly minuteVol: number;
  /** Half the bid/ask spread, in ticks. */
  readonly halfSpreadTicks: number;
  /** Typical ticks (volume) per active minute. */
  readonly minuteVolume: number;
  /** Ticks per pip (the unit of the stop distances below). */
  readonly pipTicks: number;
  /** Stop-loss distances a trader picks, in pips. */
  readonly stopPips: readonly number[];
  /** Position sizes a trader picks, in units, before the account's scale. */
  readonly unitChoices: readonly number[];
  /** Share of trades on this instrument. */
  readonly weight: number;
}

const FX_UNITS = [1000, 2000, 3000, 5000, 8000, 10000, 12000, 15000, 20000, 25000, 30000, 50000] as const;
const FX_STOPS = [15, 20, 25, 30, 35, 40, 50, 60] as const;

function spec(s: Omit<InstrumentSpec, 'scale'>): InstrumentSpec {
  return { ...s, scale: 10 ** s.displayPrecision };
}

export const INSTRUMENTS: readonly InstrumentSpec[] = [
  spec({
    index: 0,
    name: 'EUR_USD',
    type: 'CURRENCY',
    displayName: 'EUR/USD',
    base: 'EUR',
    quote: 'USD',
    pipLocation: -4,
    displayPrecision: 5,
    marginRate: '0.02',
    minimumTrailingStopDistance: '0.00050',
    maximumTrailingStopDistance: '1.00000',
    maximumOrderUnits: '100000000',
    financing: { longRate: '-0.0482', shortRate: '0.0061' },
    referencePrice: 1.12,
    dailyVol: 0.0045,
    minuteVol: 0.00007,
    halfSpreadTicks: 7,
    minuteVolume: 90,
    pipTicks: 10,
    stopPips: FX_STOPS,
    unitChoices: FX_UNITS,
    weight: 0.3,
  }),
  spec({
    index: 1,
    name: 'USD_JPY',
    type: 'CURRENCY',
    displayName: 'USD/JPY',
    base: 'USD',
    quote: 'JPY',
    pipLocation: -2,
    displayPrecision: 3,
    marginRate: '0.02',
    minimumTrailingStopDistance: '0.050',
    maximumTrailingStopDistance: '100.000',
    maximumOrderUnits: '100000000',
    financing: { longRate: '0.0341', shortRate: '-0.0763' },
    referencePrice: 150,
    dailyVol: 0.0055,
    minuteVol: 0.00008,
    halfSpreadTicks: 7,
    minuteVolume: 85,
    pipTicks: 10,
    stopPips: FX_STOPS,
    unitChoices: FX_UNITS,
    weight: 0.2,
  }),
  spec({
    index: 2,
    name: 'GBP_USD',
    type: 'CURRENCY',
    displayName: 'GBP/USD',
    base: 'GBP',
    quote: 'USD',
    pipLocation: -4,
    displayPrecision: 5,
    marginRate: '0.05',
    minimumTrailingStopDistance: '0.00050',
    maximumTrailingStopDistance: '1.00000',
    maximumOrderUnits: '100000000',
    financing: { longRate: '-0.0331', shortRate: '-0.0112' },
    referencePrice: 1.3,
    dailyVol: 0.005,
    minuteVol: 0.00008,
    halfSpreadTicks: 9,
    minuteVolume: 70,
    pipTicks: 10,
    stopPips: FX_STOPS,
    unitChoices: FX_UNITS,
    weight: 0.15,
  }),
  spec({
    index: 3,
    name: 'AUD_USD',
    type: 'CURRENCY',
    displayName: 'AUD/USD',
    base: 'AUD',
    quote: 'USD',
    pipLocation: -4,
    displayPrecision: 5,
    marginRate: '0.03',
    minimumTrailingStopDistance: '0.00050',
    maximumTrailingStopDistance: '1.00000',
    maximumOrderUnits: '100000000',
    financing: { longRate: '-0.0391', shortRate: '-0.0021' },
    referencePrice: 0.66,
    dailyVol: 0.0055,
    minuteVol: 0.00009,
    halfSpreadTicks: 7,
    minuteVolume: 55,
    pipTicks: 10,
    stopPips: FX_STOPS,
    unitChoices: FX_UNITS,
    weight: 0.1,
  }),
  spec({
    index: 4,
    name: 'EUR_JPY',
    type: 'CURRENCY',
    displayName: 'EUR/JPY',
    base: 'EUR',
    quote: 'JPY',
    pipLocation: -2,
    displayPrecision: 3,
    marginRate: '0.04',
    minimumTrailingStopDistance: '0.050',
    maximumTrailingStopDistance: '100.000',
    maximumOrderUnits: '100000000',
    financing: { longRate: '0.0102', shortRate: '-0.0512' },
    referencePrice: 165,
    dailyVol: 0.006,
    minuteVol: 0.00009,
    halfSpreadTicks: 9,
    minuteVolume: 60,
    pipTicks: 10,
    stopPips: FX_STOPS,
    unitChoices: FX_UNITS,
    weight: 0.1,
  }),
  spec({
    index: 5,
    name: 'XAU_USD',
    type: 'METAL',
    displayName: 'Gold',
    base: 'XAU',
    quote: 'USD',
    pipLocation: -2,
    displayPrecision: 3,
    marginRate: '0.05',
    minimumTrailingStopDistance: '0.500',
    maximumTrailingStopDistance: '100.000',
    maximumOrderUnits: '10000',
    financing: { longRate: '-0.0602', shortRate: '0.0101' },
    referencePrice: 3000,
    dailyVol: 0.009,
    minuteVol: 0.00013,
    halfSpreadTicks: 180,
    minuteVolume: 120,
    pipTicks: 10,
    stopPips: [500, 700, 900, 1200, 1500, 2000, 2500, 3000],
    unitChoices: [1, 2, 3, 4, 5, 6, 8, 10],
    weight: 0.15,
  }),
];

const BY_NAME = new Map(INSTRUMENTS.map((i) => [i.name, i]));

export function instrumentByName(name: string): InstrumentSpec | undefined {
  return BY_NAME.get(name);
}

/** OANDA's instrument-name syntax; an unknown but well-formed name is a valid filter. */
export const INSTRUMENT_NAME_RE = /^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/;

const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

/** `GET /v3/accounts/{id}/instruments` object, shaped like the reference fixture. */
export function instrumentWire(i: InstrumentSpec): Record<string, unknown> {
  return {
    name: i.name,
    type: i.type,
    displayName: i.displayName,
    pipLocation: i.pipLocation,
    displayPrecision: i.displayPrecision,
    tradeUnitsPrecision: 0,
    minimumTradeSize: '1',
    maximumTrailingStopDistance: i.maximumTrailingStopDistance,
    minimumTrailingStopDistance: i.minimumTrailingStopDistance,
    maximumPositionSize: '0',
    maximumOrderUnits: i.maximumOrderUnits,
    marginRate: i.marginRate,
    guaranteedStopLossOrderMode: 'DISABLED',
    tags: [{ type: 'ASSET_CLASS', name: i.type }],
    financing: {
      longRate: i.financing.longRate,
      shortRate: i.financing.shortRate,
      financingDaysOfWeek: WEEKDAYS.map((dayOfWeek) => ({
        dayOfWeek,
        daysCharged: dayOfWeek === 'WEDNESDAY' ? 3 : dayOfWeek === 'SATURDAY' || dayOfWeek === 'SUNDAY' ? 0 : 1,
      })),
    },
  };
}
