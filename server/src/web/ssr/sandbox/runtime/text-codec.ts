/**
 * TextEncoder and TextDecoder for UTF-8 inside the sandbox's isolate (it has none), as the
 * Encoding Standard defines them for UTF-8: whatwg-url percent-encodes and decodes with them.
 * Installed where missing when this module is loaded.
 */
/** UTF-8 bytes of a string; a lone surrogate becomes U+FFFD, as the Encoding Standard says. */
export function utf8Encode(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i += 1;
      } else code = 0xfffd;
    }
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return Uint8Array.from(bytes);
}

/**
 * A string from UTF-8 bytes; each maximal invalid subsequence becomes one U+FFFD (the Encoding
 * Standard's decoder, without BOM handling: whatwg-url asks for none).
 */
export function utf8Decode(input: ArrayBufferView | ArrayBuffer): string {
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const codes: number[] = [];
  let out = '';
  const flush = () => {
    out += String.fromCodePoint(...codes);
    codes.length = 0;
  };
  for (let i = 0; i < bytes.length;) {
    const first = bytes[i]!;
    if (first < 0x80) {
      codes.push(first);
      i += 1;
    } else {
      const [needed, min, lower, upper] =
        first >= 0xc2 && first <= 0xdf
          ? [1, 0x80, 0x80, 0xbf]
          : first >= 0xe0 && first <= 0xef
            ? [2, 0x800, first === 0xe0 ? 0xa0 : 0x80, first === 0xed ? 0x9f : 0xbf]
            : first >= 0xf0 && first <= 0xf4
              ? [3, 0x10000, first === 0xf0 ? 0x90 : 0x80, first === 0xf4 ? 0x8f : 0xbf]
              : [0, 0, 0, 0];
      let code = needed === 1 ? first & 0x1f : needed === 2 ? first & 0x0f : first & 0x07;
      let seen = 0;
      i += 1;
      while (seen < needed && i < bytes.length) {
        const next = bytes[i]!;
        if (next < (seen === 0 ? lower : 0x80) || next > (seen === 0 ? upper : 0xbf)) break;
        code = (code << 6) | (next & 0x3f);
        seen += 1;
        i += 1;
      }
      codes.push(needed > 0 && seen === needed && code >= min ? code : 0xfffd);
    }
    if (codes.length >= 4096) flush();
  }
  flush();
  return out;
}

class SandboxTextEncoder {
  readonly encoding = 'utf-8';
  encode(text = ''): Uint8Array {
    return utf8Encode(String(text));
  }
}

class SandboxTextDecoder {
  readonly encoding = 'utf-8';
  constructor(label = 'utf-8') {
    if (!/^(utf-?8|unicode-1-1-utf-8)$/i.test(String(label).trim())) throw new RangeError(`Only UTF-8 is decoded here, not ${label}`);
  }
  decode(input?: ArrayBufferView | ArrayBuffer): string {
    return input === undefined ? '' : utf8Decode(input);
  }
}

if (typeof globalThis.TextEncoder === 'undefined') {
  Object.defineProperty(globalThis, 'TextEncoder', { value: SandboxTextEncoder, writable: true, configurable: true });
  Object.defineProperty(globalThis, 'TextDecoder', { value: SandboxTextDecoder, writable: true, configurable: true });
}
