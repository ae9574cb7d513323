/**
 * The one object literal every EngineTrade built in this package goes through.
 *
 * V8 gives objects from one literal a shared hidden class, but a field that first holds an integer
 * (say realizedPL "0.0000" → 0) and later a fraction forces a new class, and every object built
 * before is migrated on its next access: up to 100 ms on the first pass over 100,000 trades. Calling
 * the literal once with fractions and once with nulls at load time fixes the final class up front.
 */
import type { EngineTrade } from './types';

export function engineTrade(t: EngineTrade): EngineTrade {
  return {
    accountId: t.accountId,
    tradeId: t.tradeId,
    instrument: t.instrument,
    units: t.units,
    currentUnits: t.currentUnits,
    openPrice: t.openPrice,
    closePrice: t.closePrice,
    openTime: t.openTime,
    closeTime: t.closeTime,
    state: t.state,
    realizedPL: t.realizedPL,
    unrealizedPL: t.unrealizedPL,
    financing: t.financing,
    stopLossPrice: t.stopLossPrice,
    takeProfitPrice: t.takeProfitPrice,
    trailingStopDistance: t.trailingStopDistance,
  };
}

const withFractions: EngineTrade = {
  accountId: '',
  tradeId: '',
  instrument: '',
  units: 0.5,
  currentUnits: 0.5,
  openPrice: 0.5,
  closePrice: 0.5,
  openTime: new Date(0),
  closeTime: new Date(0),
  state: 'CLOSED',
  realizedPL: 0.5,
  unrealizedPL: 0.5,
  financing: 0.5,
  stopLossPrice: 0.5,
  takeProfitPrice: 0.5,
  trailingStopDistance: 0.5,
};
engineTrade(withFractions);
engineTrade({
  ...withFractions,
  closePrice: null,
  closeTime: null,
  stopLossPrice: null,
  takeProfitPrice: null,
  trailingStopDistance: null,
});
