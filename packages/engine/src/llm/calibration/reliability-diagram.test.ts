import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { calibrationMetrics } from './calibration-metrics.js';
import { RELIABILITY_COLOURS, renderReliabilityDiagram } from './reliability-diagram.js';

function pixel(png: PNG, x: number, y: number): number[] {
  const offset = (png.width * y + x) * 4;
  return [png.data[offset]!, png.data[offset + 1]!, png.data[offset + 2]!];
}

describe('reliability diagram', () => {
  it('writes a decodable PNG with axes, diagonal and before/after bars, one panel per type', () => {
    const before = calibrationMetrics([
      { probabilities: [0.95, 0.05], expected: 0 },
      { probabilities: [0.95, 0.05], expected: 1 },
    ]).bins;
    const after = calibrationMetrics([{ probabilities: [0.75, 0.25], expected: 0 }]).bins;
    const png = PNG.sync.read(
      renderReliabilityDiagram([
        { before, after },
        { before, after },
      ]),
    );
    expect(png.width).toBe(800);
    expect(png.height).toBe(400);
    // Plot origin (40, 360), 320 px per unit. Bin 0.9: before bar (accuracy 0.5) in the bin's left half.
    expect(pixel(png, 40 + 0.9 * 320 + 5, 360 - 0.25 * 320)).toEqual([...RELIABILITY_COLOURS.before]);
    expect(pixel(png, 40 + 0.9 * 320 + 5, 360 - 0.75 * 320)).toEqual([255, 255, 255]);
    // Bin 0.7: after bar (accuracy 1) in the bin's right half, in both panels.
    expect(pixel(png, 40 + 0.7 * 320 + 24, 360 - 0.9 * 320)).toEqual([...RELIABILITY_COLOURS.after]);
    expect(pixel(png, 400 + 40 + 0.7 * 320 + 24, 360 - 0.9 * 320)).toEqual([...RELIABILITY_COLOURS.after]);
    expect(pixel(png, 40, 200)).toEqual([...RELIABILITY_COLOURS.axes]);
    expect(pixel(png, 200, 360)).toEqual([...RELIABILITY_COLOURS.axes]);
    expect(pixel(png, 40 + 96, 360 - 96)).toEqual([...RELIABILITY_COLOURS.diagonal]); // a dash of the dashed line
  });
});
