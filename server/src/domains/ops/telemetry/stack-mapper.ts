/**
 * A client error's stack mapped to the original file, line and function of the exact version that
 * threw, with the source maps released beside its files (never served to browsers). A map is used
 * only when its bytes are the ones the version's signed manifest lists (SHA-384 and size), read at
 * most to that size; only versions in force or in a canary are mapped (what telemetry keeps). A
 * bounded number of parsed maps (and of their bytes) is kept per process, and a map that could not
 * be used is not read again for a while. A frame that cannot be mapped stays as reported.
 *
 * The function of a frame is the enclosing declaration in the original source (the map's source
 * text), since a source map names the identifier at a position, not the function around it.
 */
import { originalPositionFor, sourceContentFor, TraceMap } from '@jridgewell/trace-mapping';
import {
  isArea,
  isSafeBuildPath,
  isVersionName,
  partPrefix,
  sha384,
  type PartName,
  type ReleaseIntegrity,
  type ReleaseStorage,
} from '@shop/release';
import type { ClientStackFrame, MappedStackFrame } from '@shop/shared-kernel/contract';
import type { ReleasedVersions, StackMapper } from '../../../infra/deps.ts';

export const STACK_MAP_LIMITS = {
  /** A source map larger than this (as signed) is not read. */
  maxMapBytes: 32 * 1024 * 1024,
  /** Parsed maps kept per process, and their bytes together. */
  cachedMaps: 32,
  cachedBytes: 128 * 1024 * 1024,
  /** How long a map that could not be used is not tried again (ms). */
  retryMs: 60_000,
  /** Lines of the original source looked through, upwards, for the enclosing function. */
  declarationLines: 200,
};

/** Why a frame was not mapped, or that it was: counted in shop_client_stack_frames_total. */
export type FrameOutcome = 'mapped' | 'not_released' | 'no_map' | 'mismatch' | 'unreadable' | 'no_position';

/** An area's released file: `/remotes/<area>/<version>/<file>` on any origin. */
const AREA_FILE = /^\/remotes\/([a-z]+)\/([0-9A-Za-z.+-]{1,64})\/((?:[\w.-]+\/){0,6}[\w.-]+)$/;
/** The shell's hashed files, sent by the shop's own origin: `/assets/<file>` or `/<file>`. */
const SHELL_FILE = /^\/((?:assets\/)?[\w.-]+\.m?js)$/;

type FileRef = { part: PartName; version: string; file: string };

/** The released file a frame's address names, when its version is in force or in a canary. */
function releasedFileOf(url: string, report: { area: string; version: string }, released: ReleasedVersions): FileRef | null {
  let path: string;
  try {
    path = new URL(url, 'https://shop.invalid').pathname;
  } catch {
    return null;
  }
  const area = AREA_FILE.exec(path);
  if (area) {
    const [, part = '', version = '', file = ''] = area;
    if (!isArea(part) || !isVersionName(version) || !isSafeBuildPath(file) || !released.get(part)?.has(version)) return null;
    return { part, version, file };
  }
  const shell = SHELL_FILE.exec(path);
  if (!shell) return null;
  // The shell's addresses name no version: the report's own when it is about the shell, else the one shell in force.
  const versions = released.get('shell');
  const version = report.area === 'shell' ? report.version : versions?.size === 1 ? [...versions][0] : undefined;
  if (!version || !versions?.has(version)) return null;
  return { part: 'shell', version, file: shell[1]! };
}

/** A source's name as a team reads it: relative to its part (`src/pages/cart-page.tsx`), a package as `node_modules/<name>/…`. */
export function sourceName(source: string): string {
  return source
    .replace(/\0/g, '')
    .replace(/^[a-z]+:\/\/\/?/i, '')
    .replace(/^(?:\.\.?\/)+/, '')
    .replace(/^.*?node_modules\/\.pnpm\/[^/]+\/node_modules\//, 'node_modules/')
    .slice(0, 300);
}

/** A function's declaration on a line of source: `function name`, `name = (…) =>` / `= function`, or a method `name(…) {`. */
const DECLARATION =
  /(?:\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)|\b([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s+)?(?:function\b|(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*(?::\s*[^=]+)?=>)|^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*(?::\s*[^{]+)?\{)/;
const NOT_A_FUNCTION = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'with']);

/**
 * The function around `line` (1-based) of `content`: a declaration on the line itself, else the
 * nearest one above whose block is still open at the line (a function declared and closed above, or
 * an arrow without a block, does not enclose it; an open `if` or loop block is looked past). Braces
 * in strings or comments can mislead it: a name to start from, not a parse. Null when none is near.
 */
export function enclosingFunction(content: string | null, line: number): string | null {
  if (!content) return null;
  const lines = content.split('\n');
  const from = Math.min(line, lines.length) - 1;
  let open = 0;
  for (let index = from; index >= Math.max(0, line - STACK_MAP_LIMITS.declarationLines); index -= 1) {
    const text = lines[index] ?? '';
    // The mapped line's own braces do not count: the position may be before them.
    if (index < from) open += (text.match(/\{/g)?.length ?? 0) - (text.match(/\}/g)?.length ?? 0);
    const match = DECLARATION.exec(text);
    const found = match?.[1] ?? match?.[2] ?? match?.[3];
    const name = found && !NOT_A_FUNCTION.has(found) ? found : null;
    if (index === from && name) return name;
    if (open > 0) {
      // A block still open at the line starts here: the function's, or one inside it (an `if`, a loop) to look past.
      if (name) return name;
      open = 0;
    }
  }
  return null;
}

type Cached = { map: TraceMap | null; bytes: number; at: number; outcome: FrameOutcome };

export function createStackMapper(options: {
  storage: ReleaseStorage;
  integrity: ReleaseIntegrity;
  /** Told of every frame's outcome (metrics). */
  onFrame?: (outcome: FrameOutcome) => void;
  /** Told when a released map differs from its signed manifest or cannot be read (the log). */
  onMapRefused?: (ref: FileRef, outcome: 'mismatch' | 'unreadable') => void;
  now?: () => number;
}): StackMapper {
  const { storage, integrity } = options;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Promise<Cached>>();
  /** The bytes of each parsed map in the cache (set once it is parsed). */
  const sizes = new Map<string, number>();
  let cachedBytes = 0;

  async function read(ref: FileRef): Promise<Cached> {
    const at = now();
    const refused = (outcome: FrameOutcome): Cached => ({ map: null, bytes: 0, at, outcome });
    const manifest = await integrity.manifest(ref.part, ref.version).catch(() => null);
    const digest = manifest?.files[`${ref.file}.map`];
    if (!digest || digest.size > STACK_MAP_LIMITS.maxMapBytes) return refused('no_map');
    const bytes = await storage.readBytes(`${partPrefix(ref.part, ref.version)}/${ref.file}.map`, digest.size).catch(() => null);
    if (!bytes || bytes.length !== digest.size || sha384(bytes) !== digest.sha384) {
      options.onMapRefused?.(ref, 'mismatch');
      return refused('mismatch');
    }
    try {
      return { map: new TraceMap(bytes.toString('utf8')), bytes: bytes.length, at, outcome: 'mapped' };
    } catch {
      options.onMapRefused?.(ref, 'unreadable');
      return refused('unreadable');
    }
  }

  function drop(key: string): void {
    cache.delete(key);
    cachedBytes -= sizes.get(key) ?? 0;
    sizes.delete(key);
  }

  function load(ref: FileRef): Promise<Cached> {
    const key = `${ref.part}/${ref.version}/${ref.file}`;
    const hit = cache.get(key);
    if (hit) {
      // Most recently used last; a map that could not be used is tried again after a while.
      cache.delete(key);
      cache.set(key, hit);
      return hit.then((cached) => {
        if (cached.map || now() - cached.at < STACK_MAP_LIMITS.retryMs) return cached;
        if (cache.get(key) === hit) drop(key);
        return load(ref);
      });
    }
    const loading = read(ref);
    cache.set(key, loading);
    void loading.then((cached) => {
      if (cache.get(key) !== loading) return;
      sizes.set(key, cached.bytes);
      cachedBytes += cached.bytes;
      // The oldest go first, never the one just read.
      for (const oldest of cache.keys()) {
        if (cache.size <= STACK_MAP_LIMITS.cachedMaps && cachedBytes <= STACK_MAP_LIMITS.cachedBytes) break;
        if (oldest !== key) drop(oldest);
      }
    });
    return loading;
  }

  return {
    async map(report, frames, released) {
      const mapped: MappedStackFrame[] = [];
      for (const frame of frames) {
        const unmapped = unmappedFrame(frame);
        const ref = releasedFileOf(frame.url, report, released);
        if (!ref) {
          options.onFrame?.('not_released');
          mapped.push(unmapped);
          continue;
        }
        const { map, outcome } = await load(ref);
        // Browsers count columns from 1, source maps from 0.
        const position =
          map && frame.line >= 1 && frame.column >= 1 ? originalPositionFor(map, { line: frame.line, column: frame.column - 1 }) : null;
        if (!map || !position?.source || position.line === null) {
          options.onFrame?.(map ? 'no_position' : outcome);
          mapped.push(unmapped);
          continue;
        }
        options.onFrame?.('mapped');
        mapped.push({
          fn: enclosingFunction(sourceContentFor(map, position.source), position.line) ?? position.name ?? frame.fn ?? null,
          file: sourceName(position.source),
          line: position.line,
          column: (position.column ?? 0) + 1,
          mapped: true,
        });
      }
      return mapped;
    },
  };
}

/** A frame as reported, its address's path only (the shop's own files name no host worth keeping). */
export function unmappedFrame(frame: ClientStackFrame): MappedStackFrame {
  let file: string;
  try {
    file = new URL(frame.url, 'https://shop.invalid').pathname.slice(0, 300);
  } catch {
    file = frame.url.slice(0, 300);
  }
  return { fn: frame.fn ?? null, file, line: frame.line, column: frame.column, mapped: false };
}

/** The frame a group is named after: the innermost of the part's own code (not a package's), else the innermost. */
export function topFrameOf(stack: readonly MappedStackFrame[]): string {
  const frame = stack.find((candidate) => candidate.mapped && !candidate.file.startsWith('node_modules/')) ?? stack[0];
  if (!frame) return '';
  return `${frame.fn ?? '<anonymous>'} (${frame.file}:${frame.line}:${frame.column})`.slice(0, 300);
}
