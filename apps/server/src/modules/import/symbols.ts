/*
 * MetaTrader symbols → the instrument form stored for OANDA (docs/reference/metatrader.md, Symbols): brokers add
 * suffixes and prefixes (`EURUSD.m`, `eurjpy_`, `xauusd.`, `XAUUSD.x`), MT4 prints the Item in lower case, gold may be
 * `GOLD`. A symbol whose first six letters are two ISO 4217 currency codes (or a metal and a currency) is a pair:
 * `EUR_USD`. Everything else (indices, oil, crypto, unknown names) is kept exactly as printed.
 */

/** ISO 4217 codes of currencies in use, and the metals MetaTrader quotes like currencies. */
const CURRENCIES = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF ' +
    'CHF CLP CNH CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD ' +
    'HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL ' +
    'LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR ' +
    'PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SYP SZL THB TJS TMT TND TOP TRY ' +
    'TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL'
  ).split(' '),
);
const METALS = new Set(['XAU', 'XAG', 'XPT', 'XPD']);
const ALIASES: Record<string, string> = { GOLD: 'XAU_USD', SILVER: 'XAG_USD' };

/** The leading letters of a symbol, upper-cased, after any non-letter prefix (`#`, `.`, digits are not letters). */
function lettersOf(symbol: string): string {
  const upper = symbol.trim().toUpperCase();
  let i = 0;
  while (i < upper.length && !(upper.charCodeAt(i) >= 65 && upper.charCodeAt(i) <= 90)) {
    // A prefix such as '#' or '.', but not digits ('1EURUSD' is not a pair).
    if (upper.charCodeAt(i) >= 48 && upper.charCodeAt(i) <= 57) return '';
    i++;
  }
  let j = i;
  while (j < upper.length && upper.charCodeAt(j) >= 65 && upper.charCodeAt(j) <= 90) j++;
  return upper.slice(i, j);
}

/** 'EUR', 'USD' → a pair (base may be a metal; the quote must be a currency). */
export function isCurrencyPair(base: string, quote: string): boolean {
  return (CURRENCIES.has(base) || METALS.has(base)) && CURRENCIES.has(quote) && base !== quote;
}

/** `EURUSD.m` → `EUR_USD`, `GOLD` → `XAU_USD`; indices and unknown symbols as printed. */
export function instrumentOf(symbol: string): string {
  const letters = lettersOf(symbol);
  const alias = ALIASES[letters];
  if (alias) return alias;
  if (letters.length >= 6) {
    const base = letters.slice(0, 3);
    const quote = letters.slice(3, 6);
    if (isCurrencyPair(base, quote)) return `${base}_${quote}`;
  }
  return symbol;
}

/**
 * Units per lot: 100,000 for currency pairs, 100 oz for gold, 5,000 oz for silver (the common MetaTrader
 * contract specifications); anything else '1' with `known: false`, for the trader to correct in the preview.
 */
export function contractSizeOf(
  symbol: string,
  instrument: string = instrumentOf(symbol),
): { size: string; known: boolean } {
  if (instrument.startsWith('XAU_')) return { size: '100', known: true };
  if (instrument.startsWith('XAG_')) return { size: '5000', known: true };
  const [base, quote, extra] = instrument.split('_');
  if (base && quote && extra === undefined && CURRENCIES.has(base) && isCurrencyPair(base, quote))
    return { size: '100000', known: true };
  return { size: '1', known: false };
}
