/**
 * Exact arithmetic on broker decimal strings. The one implementation lives in the contract package, so that the
 * server and the web app add P/L the same way (packages/contract/src/decimal.ts).
 */
export {
  compareDecimals,
  decimalPlaces,
  groupDecimal,
  isDecimal,
  multiplyDecimals,
  negateDecimal,
  roundDecimal,
  signOf,
  subtractDecimals,
  sumDecimals,
  trimDecimal,
} from '@pipsense/contract';
