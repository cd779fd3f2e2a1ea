/** Builds export jobs from hand-written transactions and reads the PDFs back with poppler's tools. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tag, Transaction } from '../../src/core/types.js';
import type { ExportJob, HistoryEntry } from '../../src/exporters/types.js';
import { writePdf } from '../../src/exporters/pdf/index.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { ledgerRowOf } from '../helpers/ledger-row.js';

const dir = mkdtempSync(join(tmpdir(), 'txa-pdf-'));

export const TAGS: Tag[] = [
  {
    id: 'tag_rev',
    name: 'Revenue',
    type: 'income',
    color: '#2e7d32',
    description: null,
    workspace_id: 'ws_1',
    created_by: 'u',
    created_at: '2024-01-01T00:00:00Z',
    usage_count: 0,
  },
  {
    id: 'tag_pay',
    name: 'Payroll',
    type: 'expense',
    color: '#c62828',
    description: null,
    workspace_id: 'ws_1',
    created_by: 'u',
    created_at: '2024-01-01T00:00:00Z',
    usage_count: 0,
  },
  {
    id: 'tag_int',
    name: 'Internal',
    type: 'neutral',
    color: '#607d8b',
    description: null,
    workspace_id: 'ws_1',
    created_by: 'u',
    created_at: '2024-01-01T00:00:00Z',
    usage_count: 0,
  },
];
export const tagRef = (id: string) => {
  const t = TAGS.find((x) => x.id === id)!;
  return { id: t.id, name: t.name, color: t.color };
};

export const ETH = { symbol: 'ETH', address: null, decimals: 18 };
export const USDC = { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 };

let seq = 0;
export function tx(t: Partial<Transaction> & Pick<Transaction, 'timestamp' | 'amount' | 'direction'>): Transaction {
  const n = ++seq;
  const hash = `0x${n.toString(16).padStart(4, '0')}${'ab'.repeat(30)}`;
  return {
    id: `tx_${n}`,
    tx_hash: hash,
    wallet_id: 'wal_1',
    wallet_label: 'Treasury',
    chain: 'ethereum',
    from_address: '0x1111111111111111111111111111111111111111',
    to_address: '0x2222222222222222222222222222222222222222',
    token: ETH,
    fiat_value: null,
    type: 'transfer',
    tags: [],
    notes: null,
    attachments: [],
    explorer_url: `https://etherscan.io/tx/${hash}`,
    transfer: null,
    fiat_value_source: t.fiat_value == null ? null : 'import',
    spam: false,
    ...t,
  };
}

export interface JobInput {
  rows: Transaction[];
  /** Rows before the period (or outside the filter) that open or use up lots: the tax report reads them first. */
  priorRows?: Transaction[];
  reportType: ExportJob['reportType'];
  options?: Partial<ExportJob['options']>;
  history?: Record<string, HistoryEntry[]>;
  files?: Record<string, string>;
  period?: ExportJob['period'];
}

export function makeJob(input: JobInput): ExportJob & { tags: Tag[]; progress: number[] } {
  const progress: number[] = [];
  return {
    exportId: 'exp_test1',
    format: 'pdf',
    reportType: input.reportType,
    filters: {},
    columns: [],
    workspace: { id: 'ws_1', name: 'Acme Café Treasury', tier: 'pro', base_currency: 'USD', rate_limit: null, created_at: '2024-01-01T00:00:00Z' },
    createdAt: '2025-02-03T04:05:06.000Z',
    options: {
      currency: 'USD',
      date_format: 'YYYY-MM-DD',
      include_summary: true,
      include_logo: true,
      cost_basis: 'fifo',
      basis_scope: 'wallet',
      fee_treatment: 'separate',
      ...input.options,
    },
    period: input.period ?? { start: '2024-01-01', end: '2024-12-31' },
    transactionCount: input.rows.length,
    summary: { total_inflow: 0, total_outflow: 0, net_flow: 0, transaction_count: input.rows.length },
    rows: () => input.rows,
    ledgerRows: () => {
      const typeOf = (id: string) => TAGS.find((t) => t.id === id)?.type ?? null;
      const all = [...(input.priorRows ?? []).map((tx) => ({ tx, reported: false })), ...input.rows.map((tx) => ({ tx, reported: true }))];
      const byId = new Map(all.map((r) => [r.tx.id, r.tx]));
      return all.map((r) => ({ tx: ledgerRowOf(r.tx, typeOf, (id) => byId.get(id)), reported: r.reported }));
    },
    assets: () => new AssetTable(),
    taxBooks: () => ({ walletOrder: [], picks: new Map(), allocation: null }),
    histories: (ids) => new Map(ids.flatMap((id) => (input.history?.[id] ? [[id, input.history[id]]] : []))),
    attachmentPath: (id) => input.files?.[id] ?? join(dir, `missing-${id}`),
    onProgress: (n) => progress.push(n),
    tags: TAGS,
    progress,
  };
}

export interface Rendered {
  file: string;
  pages: number;
  /** `pdftotext -layout` text, one string per page. */
  text: string[];
  bytes: number;
}

let files = 0;
export async function render(job: ExportJob, env: Record<string, string | undefined> = {}): Promise<Rendered> {
  const file = join(dir, `${job.reportType}-${++files}.pdf`);
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    const { bytes } = await writePdf(job, file);
    return { file, bytes, pages: pdfPages(file), text: pdfText(file) };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export function pdfPages(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)![1]);
}

export function pdfText(file: string): string[] {
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  return text.split('\f').slice(0, -1);
}

/**
 * For each [row marker, figure], the column at which the figure ends on the line holding the
 * marker (its last occurrence there): right-aligned figures of one column share it.
 */
export function rightEdges(page: string, cells: [string, string][]): number[] {
  const lines = page.split('\n');
  return cells.map(([marker, figure]) => {
    const line = lines.find((l) => l.includes(marker) && l.includes(figure));
    if (!line) throw new Error(`no line with '${marker}' and '${figure}'`);
    return line.lastIndexOf(figure) + figure.length;
  });
}

export interface Raster {
  width: number;
  height: number;
  /** Points to pixels. */
  scale: number;
  data: Buffer;
}

/** Renders one page with pdftoppm (PPM, RGB). */
export function rasterize(file: string, page: number, dpi = 36): Raster {
  const out = execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), file], { maxBuffer: 64 * 1024 * 1024 });
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(out.subarray(0, 32).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), scale: dpi / 72, data: out.subarray(header[0].length) };
}

/** Pixels inside a rectangle (in points) within `tolerance` of the colour `#rrggbb`. */
export function countColor(r: Raster, box: { x: number; y: number; w: number; h: number }, hex: string, tolerance = 40): number {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let py = Math.floor(box.y * r.scale); py < Math.min(r.height, (box.y + box.h) * r.scale); py++) {
    for (let px = Math.floor(box.x * r.scale); px < Math.min(r.width, (box.x + box.w) * r.scale); px++) {
      const o = (py * r.width + px) * 3;
      if (want.every((c, i) => Math.abs(r.data[o + i]! - c) <= tolerance)) n++;
    }
  }
  return n;
}
