import type { GetInfoResponse, InfoRecord, ProvidersStatus } from '@pipsense/contract';
import { ok, type Route } from './fake-api';

export const GET_INFO = '/api/v1/account/get_info';
export const UPDATE_INFO = '/api/v1/account/update_info';

export const providersFixture: ProvidersStatus = {
  openai: {
    configured: true,
    detail: 'Connected through api.openai.com: gpt-4o for trading, gpt-4o for accounts, gpt-3.5-turbo for candles.',
  },
  vertexai: {
    configured: false,
    detail: 'Not configured on this server (set VERTEX_API_KEY, or VERTEX_PROJECT with Google credentials).',
  },
};

/** get_info's answer. */
export const infoBody = (data: InfoRecord, providers = providersFixture): GetInfoResponse => ({
  success: true,
  message: 'Settings loaded.',
  data,
  providers,
});

/** get_info's answer for a user whose saved OANDA token comes back masked, or empty when none is saved. */
export const oandaInfoBody = (accessToken: string) =>
  infoBody({
    default_ai_platfrom: 'openai',
    default_trading_platfrom: accessToken ? 'OANDA' : '',
    oanda: { accessToken, accountId: '', mode: 'demo' },
  });

/** The info routes: get_info answers the stored record, update_info stores what it is sent. */
export function infoRoutes(initial: InfoRecord): Record<string, Route> {
  let stored = initial;
  return {
    [`GET ${GET_INFO}`]: () => ok(infoBody(stored)),
    [`POST ${UPDATE_INFO}`]: (call) => {
      stored = call.body as InfoRecord;
      return ok({ ...infoBody(stored), message: 'Configuration updated successfully' });
    },
  };
}

/** get_info's answer for a MetaTrader-only trader: no OANDA token, MetaTrader made the default by an import. */
export const metaTraderInfoBody = () =>
  infoBody({
    default_ai_platfrom: 'openai',
    default_trading_platfrom: 'MetaTrader',
    oanda: { accessToken: '', accountId: '', mode: '' },
  });
