/**
 * The one object literal every EngineTrade built in this package goes through.
 *
 * V8 gives objects from one literal a shared hidden class and picks a representation per field. A
 * field that first holds an integer (say realizedPL "0.0000" → 0) and later a fraction forces a new
 * class, and every object built before is migrated on its next access: up to 100 ms on the first
 * pass over 100,000 trades. The calls at load time fix the final class up front, and they fix every
 * number field to the general ("tagged") representation rather than to doubles: a double field
 * keeps a separate 16-byte box per object even for 0 or 10000, while a tagged field stores small
 * integers inline and allocates only for fractions. On synthetic histories that is about 70 bytes,
 * a quarter of each trade.
 */
import type { EngineTrade, EngineTradeInput } from './types';

export function engineTrade(t: EngineTradeInput): EngineTrade {
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
    initialStop: t.initialStop ?? false,
    rMultiple: t.rMultiple ?? null,
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
  openTime: 0.5,
  closeTime: 0.5,
  state: 'CLOSED',
  realizedPL: 0.5,
  unrealizedPL: 0.5,
  financing: 0.5,
  stopLossPrice: 0.5,
  takeProfitPrice: 0.5,
  trailingStopDistance: 0.5,
  initialStop: true,
  rMultiple: 0.5,
};
engineTrade(withFractions);
engineTrade({
  ...withFractions,
  closePrice: null,
  closeTime: null,
  stopLossPrice: null,
  takeProfitPrice: null,
  trailingStopDistance: null,
  rMultiple: null,
});
// Never a real trade: a non-number in each number-only field is what makes V8 choose the tagged
// representation for it (numbers alone only ever widen a field to doubles).
const notANumber = null as unknown as number;
engineTrade({
  ...withFractions,
  units: notANumber,
  currentUnits: notANumber,
  openPrice: notANumber,
  openTime: notANumber,
  realizedPL: notANumber,
  unrealizedPL: notANumber,
  financing: notANumber,
});
