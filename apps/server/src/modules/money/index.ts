/** The money module's public face (docs/ARCHITECTURE.md): balance and equity over time, and returns. */
export { createMoneyService } from './money.service';
export { moneyRoutes } from './money.routes';
export { bookTrades, namedAccounts, noCandles, noEquitySamples } from './sources';
