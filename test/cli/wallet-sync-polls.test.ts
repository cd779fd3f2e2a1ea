/**
 * How often `txa wallet sync` against a remote API looks at the sync's status: each look is a
 * request of the workspace's hourly budget (docs/reference/api.md "Tier limits": 100 on the free tier), and the CLI spent
 * one a second, so a sync of two minutes used the free budget up and ended the CLI with exit 5.
 */
import { describe, expect, it } from 'vitest';
import { pollDelayMs } from '../../src/cli/commands/wallet/sync-remote.js';

/** The looks a poller makes while a sync runs `runMs`, replaying its delays. */
function looks(runMs: number): number {
  let n = 0;
  for (let t = 0; t < runMs; t += pollDelayMs(t)) n++;
  return n;
}

describe('remote wallet sync polling', () => {
  it('looks every second at first, so a short sync is seen to end at once', () => {
    expect([0, 1000, 4000].map(pollDelayMs)).toEqual([1000, 1000, 1000]);
  });

  it('an hour-long sync costs fewer looks than the free tier has requests in an hour', () => {
    expect(looks(3_600_000)).toBeLessThan(100);
    expect(looks(24 * 3_600_000) / 24).toBeLessThanOrEqual(61);
  });
});
