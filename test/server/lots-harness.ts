/**
 * The in-process server (fastify inject) the lots route tests share: the ledger of
 * test/lots/seed.ts with a `write` and a `read` key, a caller, and a check of success bodies
 * against the OpenAPI document the server serves.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { Engine } from '../../src/engine/engine.js';
import { listKeys } from '../../src/engine/keys.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { buildServer } from '../../src/server/app.js';
import { type LotsLedger, lotsLedger } from '../lots/seed.js';

export interface LotsServer {
  l: LotsLedger;
  write: string;
  read: string;
  /** The `write` key as listed (its id and its member's). */
  writeKey: () => ReturnType<typeof listKeys>[number];
  call: (key: string | null, opts: InjectOptions) => Promise<{ status: number; body: any }>;
  /** A checker of success bodies against the response schema of their operation. */
  conformance: () => Promise<(path: string, method: string, status: string, body: { data: unknown }) => void>;
  close: () => Promise<void>;
}

export function lotsServer(): LotsServer {
  const l = lotsLedger();
  const write = l.key('write');
  const read = l.key('read');
  const engine = Engine.open(l.path);
  const app: FastifyInstance = buildServer({ backend: new LocalBackend(engine), engine, allowPrivateWebhooks: false });
  const call: LotsServer['call'] = async (key, opts) => {
    const res = await app.inject({ ...opts, headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const conformance: LotsServer['conformance'] = async () => {
    const doc = (await call(null, { method: 'GET', url: '/api/v1/openapi.json' })).body;
    return (path, method, status, body) => {
      const data = doc.paths[path][method].responses[status].content['application/json'].schema.properties.data;
      const schema = doc.components.schemas[(data.items ?? data).$ref.split('/').pop()];
      const items = (data.type === 'array' ? body.data : [body.data]) as Record<string, unknown>[];
      expect(items.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const item of items) {
        expect(z.fromJSONSchema(schema).safeParse(item).error, `${method} ${path}`).toBeUndefined();
        expect(Object.keys(item).sort(), `${method} ${path}`).toEqual(Object.keys(schema.properties).sort());
      }
    };
  };
  return {
    l,
    write,
    read,
    writeKey: () => listKeys(engine, l.ws).find((k) => k.access === 'write')!,
    call,
    conformance,
    close: async () => {
      await app.close();
      engine.close();
    },
  };
}
