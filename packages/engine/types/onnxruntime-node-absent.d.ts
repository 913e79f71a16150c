/*
 * Stands in for onnxruntime-node's types where that optional runtime is not installed (the default
 * install leaves it out; docs/engines.md says how to add it). packages/engine/tsconfig.json maps
 * `onnxruntime-node` to the installed package first and to this file only when it is absent. The
 * API the `nli` engine uses is onnxruntime-common's, which onnxruntime-node re-exports and which is
 * installed (1 MB), so these are the same types; the engine imports onnxruntime-node itself only
 * when an `nli` model first answers.
 */
export * from 'onnxruntime-common';
