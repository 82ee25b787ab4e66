/**
 * The messages between the server and a renderer process, over the renderer's stdin and stdout:
 * each frame is a small JSON header and one text body (a part's code, a page's data, a page's
 * HTML), both UTF-8 with their byte lengths in front, so large texts cross once, without being
 * escaped into JSON or parsed again.
 *
 *   frame = u32 header length | u32 body length | header (JSON) | body
 */
import type { Readable, Writable } from 'node:stream';

/** Refuses a frame past this size: a renderer's answer is one page. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export type Frame<H> = { header: H; body: string };

export function writeFrame(to: Writable, header: unknown, body = ''): boolean {
  const head = Buffer.from(JSON.stringify(header));
  const text = Buffer.from(body);
  const prefix = Buffer.allocUnsafe(8);
  prefix.writeUInt32LE(head.length, 0);
  prefix.writeUInt32LE(text.length, 4);
  return to.write(Buffer.concat([prefix, head, text]));
}

/** Calls `onFrame` for each whole frame read from `from`; `onError` for a frame that cannot be one (the stream is then ignored). */
export function readFrames<H>(from: Readable, onFrame: (frame: Frame<H>) => void, onError: (error: Error) => void): void {
  let chunks: Buffer[] = [];
  let buffered = 0;
  /** The whole frame's length once its prefix is in, else -1. */
  let frameLength = -1;
  let broken = false;
  const joined = () => {
    if (chunks.length > 1) chunks = [Buffer.concat(chunks, buffered)];
    return chunks[0]!;
  };
  from.on('data', (chunk: Buffer) => {
    if (broken) return;
    chunks.push(chunk);
    buffered += chunk.length;
    for (;;) {
      if (frameLength < 0) {
        if (buffered < 8) return;
        const prefix = chunks[0]!.length >= 8 ? chunks[0]! : joined();
        const size = prefix.readUInt32LE(0) + prefix.readUInt32LE(4);
        if (size > MAX_FRAME_BYTES) {
          broken = true;
          onError(new Error(`a frame of ${size} bytes is larger than allowed`));
          return;
        }
        frameLength = 8 + size;
      }
      // A large frame arrives in many chunks: they are joined once, when all of it is there.
      if (buffered < frameLength) return;
      const all = joined();
      const headLength = all.readUInt32LE(0);
      let header: H;
      try {
        header = JSON.parse(all.toString('utf8', 8, 8 + headLength)) as H;
      } catch (error) {
        broken = true;
        onError(error as Error);
        return;
      }
      const body = all.toString('utf8', 8 + headLength, frameLength);
      const rest = all.subarray(frameLength);
      chunks = rest.length > 0 ? [rest] : [];
      buffered = rest.length;
      frameLength = -1;
      onFrame({ header, body });
    }
  });
}
