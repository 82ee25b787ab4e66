/**
 * A client error's stack as it may leave the browser and as the server keeps it: its frames
 * (function, file URL, line, column), at most MAX_STACK_FRAMES, each scrubbed of personal data.
 * The message line is left out (the message is reported apart, scrubbed); a released file's
 * address (`/remotes/<area>/<version>/…`, the shell's `/assets/…`) is kept as it is, so the server
 * can map the frame with that version's source map; any other address loses its query and
 * fragment, e-mail addresses and long numbers, like a message. The server scrubs again.
 */
import { scrubClientMessage } from './telemetry-rules.ts';

/** Frames kept of a stack (the innermost first). */
export const MAX_STACK_FRAMES = 16;
/** A frame's file URL at most. */
export const MAX_FRAME_URL_LENGTH = 300;
/** A frame's function name at most. */
export const MAX_FRAME_FUNCTION_LENGTH = 100;
/** The highest line or column a frame may name (a minified file is one long line). */
export const MAX_FRAME_POSITION = 100_000_000;
/** Characters of a stack read at most: a longer one is cut before it is parsed. */
const MAX_STACK_TEXT = 16 * 1024;

export type StackFrameReport = {
  /** The function as the browser names it (minified), when it does. */
  fn?: string;
  url: string;
  /** 1-based. */
  line: number;
  /** 1-based, as browsers report it. */
  column: number;
};

/** Chrome and Edge (V8): `    at fn (url:line:col)` or `    at url:line:col`, either after `async `. */
const V8_FRAME = /^\s*at (?:async )?(?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/;
/** Firefox and Safari: `fn@url:line:col` or `@url:line:col`. */
const GECKO_FRAME = /^\s*([^@\s]*)@(.+?):(\d+):(\d+)\s*$/;
/** A released file's address: the area's versioned folder or the shell's hashed files. Nothing personal in it. */
const RELEASED_FILE =
  /^(?:https?:\/\/[^/\s?#]+)?\/(?:remotes\/[a-z]+\/[0-9A-Za-z.+-]{1,64}\/(?:[\w.-]+\/){0,6}[\w.-]+|(?:assets\/)?[\w.-]+\.m?js)$/;

function scrubUrl(url: string): string {
  const bare = url.replace(/[?#].*$/, '');
  if (bare.length <= MAX_FRAME_URL_LENGTH && RELEASED_FILE.test(bare)) return bare;
  return scrubClientMessage(url).slice(0, MAX_FRAME_URL_LENGTH);
}

function scrubFunction(fn: string | undefined): string | undefined {
  if (!fn) return undefined;
  const scrubbed = scrubClientMessage(fn).slice(0, MAX_FRAME_FUNCTION_LENGTH);
  return scrubbed === '' ? undefined : scrubbed;
}

const position = (value: number) => Number.isSafeInteger(value) && value >= 0 && value <= MAX_FRAME_POSITION;

/** A frame as it may be reported and kept (also the server's second scrubbing); null when it names no position. */
export function scrubStackFrame(frame: StackFrameReport): StackFrameReport | null {
  if (!position(frame.line) || !position(frame.column) || typeof frame.url !== 'string') return null;
  const url = scrubUrl(frame.url);
  if (url === '') return null;
  const fn = scrubFunction(frame.fn);
  return { ...(fn ? { fn } : {}), url, line: frame.line, column: frame.column };
}

/** The frames of an error's `stack` text (V8's or Firefox's and Safari's form), scrubbed and bounded; [] for anything else. */
export function clientStackFrames(stack: unknown): StackFrameReport[] {
  if (typeof stack !== 'string') return [];
  const frames: StackFrameReport[] = [];
  for (const line of stack.slice(0, MAX_STACK_TEXT).split('\n')) {
    if (frames.length >= MAX_STACK_FRAMES) break;
    const match = V8_FRAME.exec(line) ?? GECKO_FRAME.exec(line);
    if (!match) continue;
    const [, fn, url = '', row = '', column = ''] = match;
    const frame = scrubStackFrame({ fn, url, line: Number(row), column: Number(column) });
    if (frame) frames.push(frame);
  }
  return frames;
}
