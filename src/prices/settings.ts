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
