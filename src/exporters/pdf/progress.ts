import type { ExportJob } from '../types.js';

const EVERY = 250;

/** Reports rows done to the job every few hundred rows, and the final count at the end. */
export function progress(job: ExportJob): { tick(): void; done(): void } {
  let n = 0;
  return {
    tick() {
      if (++n % EVERY === 0) job.onProgress(n);
    },
    done() {
      job.onProgress(n);
    },
  };
}
