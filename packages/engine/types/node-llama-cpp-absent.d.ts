/*
 * Stands in for node-llama-cpp's types where that optional runtime is not installed (the default
 * install leaves it out; docs/engines.md says how to add it). packages/engine/tsconfig.json maps
 * `node-llama-cpp` to the installed package first and to this file only when the package is
 * absent, so a default install builds. At run time the engine imports the package only when a
 * `llama-cpp` model first answers, and says how to install it when it is missing.
 *
 * The real types still check the llama code: `npm test` installs the runtime first
 * (scripts/test-prerequisites.sh), and tsconfig.tests.json, which has no such mapping, type-checks
 * the llama sources through their tests against the installed package.
 */
/* biome-ignore-all lint/suspicious/noExplicitAny: the stand-in for types that are not installed */
export type Llama = any;
export type LlamaModel = any;
export type LlamaContext = any;
export type LlamaContextSequence = any;
export type Token = any;
export declare const getLlama: any;
export declare const LlamaLogLevel: any;
export declare const readGgufFileInfo: any;
