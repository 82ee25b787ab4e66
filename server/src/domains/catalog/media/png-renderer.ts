/**
 * Draws product pictures (SVG from product-image.ts) as PNG, off the event loop: resvg (WebAssembly)
 * runs on one worker thread, with DejaVu Sans (the invoices' font, with Slovak diacritics) as its
 * only font. A photo-like raster costs a browser no main-thread work to paint, where every SVG
 * picture is a document of its own to parse, lay out and paint (a listing page's pictures made long
 * tasks on a phone's main thread); comparators (Heureka, Google) accept raster pictures only.
 * Drawings are kept in a bounded LRU cache; at most MAX_QUEUED wait, beyond that a quick 429.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../../infra/http/errors.ts';

const require = createRequire(import.meta.url);
const MAX_QUEUED = 64;
const RENDER_TIMEOUT_MS = 10_000;
const CACHE_BYTES = 32 * 1024 * 1024;

// CommonJS on purpose: an eval'd worker has `require`, and one file serves tsx, vitest and the bundle alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { initWasm, Resvg } = require(workerData.resvg);
const ready = initWasm(readFileSync(workerData.wasm));
const font = readFileSync(workerData.font);
parentPort.on('message', async ({ id, svg, width }) => {
  try {
    await ready;
    const png = new Resvg(svg, {
      fitTo: { mode: 'width', value: width },
      font: { fontBuffers: [font], defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans', loadSystemFonts: false },
    }).render().asPng();
    parentPort.postMessage({ id, png }, [png.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

type Pending = { resolve: (png: Buffer) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

export class PngRenderer {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly cache = new LRUCache<string, Buffer>({ maxSize: CACHE_BYTES, sizeCalculation: (png) => png.length });

  /** The PNG of `svg` drawn `width` pixels wide; `key` names the drawing in the cache. */
  async render(key: string, svg: string, width: number): Promise<Buffer> {
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (this.pending.size >= MAX_QUEUED) {
      throw new ApiError(429, 'rate_limited', 'Obrázkov sa práve kreslí priveľa. Skúste to o chvíľu znova.');
    }
    const png = await this.draw(svg, width);
    this.cache.set(key, png);
    return png;
  }

  close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private draw(svg: string, width: number): Promise<Buffer> {
    const worker = this.worker ?? this.start();
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, new Error('A picture took too long to draw')), RENDER_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, svg, width });
    });
  }

  private settle(id: number, outcome: Buffer | Error) {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        resvg: require.resolve('@resvg/resvg-wasm'),
        wasm: require.resolve('@resvg/resvg-wasm/index_bg.wasm'),
        font: join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf'),
      },
    });
    worker.unref();
    worker.on('message', (message: { id: number; png?: Uint8Array; error?: string }) => {
      this.settle(
        message.id,
        message.png ? Buffer.from(message.png.buffer, message.png.byteOffset, message.png.byteLength) : new Error(message.error),
      );
    });
    // A worker that dies fails what it held; the next picture starts a new one.
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const id of [...this.pending.keys()]) this.settle(id, error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The picture worker stopped (${code})`)));
    this.worker = worker;
    return worker;
  }
}
