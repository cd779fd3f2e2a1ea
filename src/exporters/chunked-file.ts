/**
 * A file written in large string chunks that respects the stream's backpressure, so writers
 * stay fast (one syscall per chunk) and memory stays flat however many rows they emit. The
 * SHA-256 of the bytes is computed on the way, so the file need not be read back for its digest.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { once } from 'node:events';

const CHUNK_CHARS = 256 * 1024;
/** Up to four chunks queued for the disk: the writer builds the next chunk while one is written. */
const QUEUED_BYTES = 4 * CHUNK_CHARS;

export interface Written {
  bytes: number;
  sha256: string;
}

export class ChunkedFile {
  private readonly stream: WriteStream;
  private parts: string[] = [];
  private size = 0;
  private failure: Error | undefined;
  private readonly hash = createHash('sha256');

  constructor(path: string) {
    this.stream = createWriteStream(path, { highWaterMark: QUEUED_BYTES });
    this.stream.on('error', (err) => {
      this.failure = err;
    });
  }

  /** Buffers `text`; true when a chunk is full and the caller should `await flush()`. */
  add(text: string): boolean {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= CHUNK_CHARS;
  }

  /** Writes the buffered chunk and waits while the stream is saturated (backpressure). */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.parts.length === 0) return;
    const chunk = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    this.hash.update(chunk);
    if (!this.stream.write(chunk)) await this.drained();
    if (this.failure) throw this.failure;
  }

  /** Resolves on 'drain' or on an error (then thrown by the caller), leaving no listener behind. */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
    });
  }

  /** Writes what is buffered, closes the file and returns its size in bytes and SHA-256 (hex). */
  async close(): Promise<Written> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
    if (this.failure) throw this.failure;
    return { bytes: this.stream.bytesWritten, sha256: this.hash.digest('hex') };
  }

  /** Closes the file after a failure without waiting on pending data. */
  destroy(): void {
    this.stream.destroy();
  }
}

/** Creates a file, lets `fill` write it, and closes it; on failure the file is destroyed and the error rethrown. */
export async function writeChunked(path: string, fill: (file: ChunkedFile) => Promise<void>): Promise<Written> {
  const file = new ChunkedFile(path);
  try {
    await fill(file);
    return await file.close();
  } catch (err) {
    file.destroy();
    throw err;
  }
}
