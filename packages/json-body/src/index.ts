export { installJsonBodyParser, JSON_TOO_DEEP_CODE, MAX_JSON_DEPTH } from './json-body.js';
