import type { Finding } from '../finding.js';
import { RISK } from '../risk-scale.js';

/**
 * Issue 27, "changes judged by their consequence": a list of accepted file types (an upload's
 * allowed extensions or MIME types, a static server's served types) decides what a stranger may
 * put where others fetch it. Types that the browser or the server runs (HTML, SVG with its
 * scripts, server pages, executables) turn an upload into code served from the site's own
 * origin; types that are only displayed (images, documents, media) do not.
 */
const ACTIVE_TYPE =
  /(?<![\w-])\.?(html?|xhtml|shtml|svgz?|php\d?|phtml|phar|jsp|jspx|aspx?|ashx|asmx|cgi|pl|py|rb|sh|bash|bat|cmd|ps1|exe|dll|msi|jar|war|js|mjs|swf|hta|vbs)(?![\w-])|\b(text\/html|image\/svg\+xml|application\/xhtml\+xml|application\/x-php|application\/x-msdownload|application\/javascript|text\/javascript)\b|(?<=["'])\*(?:\/\*)?(?=["'])/gi;

/** Lines that declare what is accepted: an allow list of extensions or types. */
const ACCEPT_LIST_LINE =
  /\b(allow\w*|accept\w*|permit\w*|whitelist\w*|safe)[\w]*[^\n]{0,40}\b(ext\w*|types?|mimes?|mime_?types?|content_?types?|suffix\w*|formats?|files?|uploads?)\b|\b(ext\w*|mimes?|mime_?types?|content_?types?|file_?types?|upload\w*)[\w]*[^\n]{0,20}\b(allow\w*|accept\w*|permit\w*|whitelist\w*)\b/i;

function activeTypes(text: string): Set<string> {
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    // Names read as words (`ALLOWED_EXTENSIONS`, `allowedMimeTypes`).
    if (!ACCEPT_LIST_LINE.test(line.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' '))) continue;
    // The list's values, not the words that name it (`ALLOWED_EXTENSIONS`).
    const values = line.slice(line.search(/[=:[{(]/) + 1);
    for (const match of values.matchAll(ACTIVE_TYPE)) found.add(match[0].toLowerCase().replace(/^\./, ''));
  }
  return found;
}

/** An accepted-types list that gains a type which runs, or every type. */
export function judgeAcceptedTypes(inserted: string, removed: string): Finding[] {
  const before = activeTypes(removed);
  const gained = [...activeTypes(inserted)].find((type) => !before.has(type));
  if (gained === undefined) return [];
  return [{ code: `content.accepts-active-type:${gained.slice(0, 40)}`, deny: RISK.askHigh, onTask: 0.3 }];
}
