/**
 * The UTF-8 byte length of `JSON.stringify(value)` (compact), computed without building the
 * string. Token estimates run on every request, twice (the context check, then the engine's
 * usage), and serialising each question only to measure it cost more than the built-in engine's
 * evaluation of it (bench/decision-http.mjs). Anything unusual (escapes, lone surrogates,
 * `toJSON`, non-plain values) is measured by `JSON.stringify` itself, so the result is exact.
 */
export function jsonByteLength(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringByteLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4; // NaN and ±Infinity become null
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      if (value === null) return 4;
      if (Array.isArray(value)) return arrayByteLength(value);
      if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
        return objectByteLength(value as Record<string, unknown>);
      break;
  }
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/**
 * A JSON string's UTF-8 bytes in one pass over its code units; a string with characters JSON
 * escapes (quote, backslash, controls) or a lone surrogate is measured by `JSON.stringify`.
 */
function stringByteLength(text: string): number {
  let bytes = 2; // quotes
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      if (unit < 0x20 || unit === 0x22 || unit === 0x5c)
        return Buffer.byteLength(JSON.stringify(text), 'utf8');
      bytes += 1;
    } else if (unit < 0x800) bytes += 2;
    else if (unit < 0xd800 || unit > 0xdfff) bytes += 3;
    else {
      const next = text.charCodeAt(index + 1);
      if (unit > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff))
        return Buffer.byteLength(JSON.stringify(text), 'utf8');
      bytes += 4; // a surrogate pair: one code point above U+FFFF
      index++;
    }
  }
  return bytes;
}

function arrayByteLength(items: readonly unknown[]): number {
  let bytes = 2 + Math.max(0, items.length - 1); // brackets, commas
  for (const item of items) {
    // undefined, functions and symbols in an array are written as null.
    bytes +=
      item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 4 : jsonByteLength(item);
  }
  return bytes;
}

function objectByteLength(object: Record<string, unknown>): number {
  if (typeof object.toJSON === 'function') return Buffer.byteLength(JSON.stringify(object), 'utf8');
  let bytes = 2; // braces
  let members = 0;
  for (const key of Object.keys(object)) {
    const item = object[key];
    // JSON.stringify leaves out members whose value it cannot write.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    bytes += jsonByteLength(key) + 1 + jsonByteLength(item); // "key":value
    members++;
  }
  return bytes + Math.max(0, members - 1);
}
