/**
 * A file written in large string chunks that respects the stream's backpressure, so writers
 * stay fast (one syscall per chunk) and memory stays flat however many rows they emit.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

const CHUNK_CHARS = 256 * 1024;

export class ChunkedFile {
  private readonly stream: WriteStream;
  private parts: string[] = [];
  private size = 0;
  private failure: Error | undefined;

  constructor(path: string) {
    this.stream = createWriteStream(path, { encoding: 'utf8' });
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
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
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

  /** Writes what is buffered, closes the file and returns its size in bytes. */
  async close(): Promise<number> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
    if (this.failure) throw this.failure;
    return this.stream.bytesWritten;
  }

  /** Closes the file after a failure without waiting on pending data. */
  destroy(): void {
    this.stream.destroy();
  }
}

/** Creates a file, lets `fill` write it, and closes it; on failure the file is destroyed and the error rethrown. */
export async function writeChunked(path: string, fill: (file: ChunkedFile) => Promise<void>): Promise<number> {
  const file = new ChunkedFile(path);
  try {
    await fill(file);
    return await file.close();
  } catch (err) {
    file.destroy();
    throw err;
  }
}
