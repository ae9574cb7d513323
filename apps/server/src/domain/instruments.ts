/**
 * Pip size of an instrument, following OANDA's `pipLocation` (pip = 10 ^ pipLocation):
 *   quote currency JPY (USD_JPY, EUR_JPY, …)      0.01
 *   XAU_* (gold; OANDA pipLocation −2)              0.01   → a 1.00 move in gold is 100 pips
 *   XAG_* (silver; OANDA pipLocation −4)            0.0001
 *   everything else                                 0.0001
 * Brokers quoting gold with 2 decimals call 0.10 a pip; we follow the broker the data comes from.
 * The broker's own instrument list, when the caller has it, overrides this (EngineOptions.pipSizes).
 */
export function defaultPipSize(instrument: string): number {
  if (instrument.endsWith('_JPY')) return 0.01;
  if (instrument.startsWith('XAU_')) return 0.01;
  return 0.0001;
}

export function pipSizeOf(instrument: string, overrides?: Readonly<Record<string, number>>): number {
  const override = overrides?.[instrument];
  return override !== undefined && override > 0 ? override : defaultPipSize(instrument);
}
