// All instruments' price paths plus the currency conversions OANDA applies to P/L and margin.

import { INSTRUMENTS, instrumentByName, type InstrumentSpec } from './instruments';
import { PricePath } from './price-path';

export class Market {
  readonly paths: readonly PricePath[];

  constructor(seed: number) {
    this.paths = INSTRUMENTS.map((spec) => new PricePath(spec, seed));
  }

  path(spec: InstrumentSpec): PricePath {
    const path = this.paths[spec.index];
    if (!path) throw new Error(`no price path for ${spec.name}`);
    return path;
  }

  /** Mid price (as a number) of an instrument at an instant, for valuation and conversion. */
  mid(name: string, ms: number): number {
    const spec = instrumentByName(name);
    if (!spec) throw new Error(`unknown instrument ${name}`);
    return this.path(spec).roughMid(ms) / spec.scale;
  }

  /** US dollars per one unit of `currency` at an instant. */
  usdPer(currency: string, ms: number): number {
    switch (currency) {
      case 'USD':
        return 1;
      case 'EUR':
        return this.mid('EUR_USD', ms);
      case 'GBP':
        return this.mid('GBP_USD', ms);
      case 'AUD':
        return this.mid('AUD_USD', ms);
      case 'JPY':
        return 1 / this.mid('USD_JPY', ms);
      case 'XAU':
        return this.mid('XAU_USD', ms);
      default:
        throw new Error(`no conversion for ${currency}`);
    }
  }

  /** Factor turning an amount in `from` into the account's `home` currency at an instant. */
  conversion(from: string, home: string, ms: number): number {
    if (from === home) return 1;
    return this.usdPer(from, ms) / this.usdPer(home, ms);
  }
}

export const HOME_CURRENCIES = ['USD', 'EUR', 'GBP', 'AUD', 'JPY'] as const;
export type HomeCurrency = (typeof HOME_CURRENCIES)[number];
