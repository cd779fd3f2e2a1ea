/** The price APIs' settings from the environment (docs/prices.md). */
import { answerLimits, httpUrl, positive } from '../sync/settings.js';
import type { AnswerLimits } from '../sync/http.js';

export interface PriceSettings {
  defillamaUrl: string;
  coingeckoUrl: string;
  coingeckoKey: string | undefined;
  /** `TXA_PRICES_RPS`; unset: each API's own pace. */
  rps: number | undefined;
  /** Each call's size cap and deadline (`TXA_PRICES_TIMEOUT`, seconds). */
  limits: AnswerLimits;
}

export function priceSettings(env: NodeJS.ProcessEnv): PriceSettings {
  const rps = positive(env, 'TXA_PRICES_RPS', 0, false);
  return {
    defillamaUrl: httpUrl(env, 'TXA_DEFILLAMA_URL') ?? 'https://coins.llama.fi',
    coingeckoUrl: httpUrl(env, 'TXA_COINGECKO_URL') ?? 'https://api.coingecko.com/api/v3',
    coingeckoKey: env.TXA_COINGECKO_API_KEY || undefined,
    rps: rps || undefined,
    limits: answerLimits(env, 'TXA_PRICES_TIMEOUT'),
  };
}

/** The ECB's reference-rate files (docs/prices.md "Exchange rates"). */
export interface FxSettings {
  /** `TXA_FX_URL`: the directory holding eurofxref-hist.zip and eurofxref-hist-90d.xml. */
  url: string;
  /** `TXA_FX_RPS` (default 1): the pace of calls and so of the waits between retries. */
  rps: number;
  /** Each call's size cap and deadline (`TXA_FX_TIMEOUT`, seconds, default 30). */
  limits: AnswerLimits;
}

export const ECB_URL = 'https://www.ecb.europa.eu/stats/eurofxref';

export function fxSettings(env: NodeJS.ProcessEnv): FxSettings {
  return {
    url: (httpUrl(env, 'TXA_FX_URL') ?? ECB_URL).replace(/\/+$/, ''),
    rps: positive(env, 'TXA_FX_RPS', 1, false),
    limits: answerLimits(env, 'TXA_FX_TIMEOUT'),
  };
}
