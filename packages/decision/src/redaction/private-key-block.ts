import { redactionMarker } from './redaction-marker.js';

const beginLine = /-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY( BLOCK)?-----/g;
const endLine = /-----END (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/y;
/** Base64 body, PEM headers and literal `\n` escapes (keys inside JSON text) of a block cut short. */
const truncatedBody = /(?:[A-Za-z0-9+/=\s:,.-]|\\[nr])*/y;

/**
 * Removes PEM and OpenSSH private key blocks, including blocks whose END line is missing (a key
 * cut off by a diff or a log line is still a key). Written as a scan rather than one lazy regex so
 * that many BEGIN lines without an END stay linear in the length of the text.
 */
export function redactPrivateKeyBlocks(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text;
  let result = '';
  let copiedUpTo = 0;
  let endSearchFailedFrom = Number.POSITIVE_INFINITY;
  beginLine.lastIndex = 0;
  for (let begin = beginLine.exec(text); begin !== null; begin = beginLine.exec(text)) {
    const bodyStart = begin.index + begin[0].length;
    let blockEnd = bodyStart >= endSearchFailedFrom ? -1 : findEndLine(text, bodyStart);
    if (blockEnd === -1) {
      endSearchFailedFrom = Math.min(endSearchFailedFrom, bodyStart);
      truncatedBody.lastIndex = bodyStart;
      truncatedBody.exec(text);
      blockEnd = truncatedBody.lastIndex;
    }
    result += text.slice(copiedUpTo, begin.index) + redactionMarker('private-key');
    copiedUpTo = blockEnd;
    beginLine.lastIndex = blockEnd;
  }
  return copiedUpTo === 0 ? text : result + text.slice(copiedUpTo);
}

function findEndLine(text: string, from: number): number {
  for (let at = text.indexOf('-----END ', from); at !== -1; at = text.indexOf('-----END ', at + 1)) {
    endLine.lastIndex = at;
    if (endLine.test(text)) return endLine.lastIndex;
  }
  return -1;
}
