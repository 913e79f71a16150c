export {
  installJsonBodyParser,
  JSON_BODY_REFUSED_CODE,
  JSON_CHARSET_CODE,
  JSON_TOO_DEEP_CODE,
  jsonStrictnessViolation,
  MAX_JSON_DEPTH,
} from './json-body.js';
