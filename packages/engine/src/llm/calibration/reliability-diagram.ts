import { createRequire } from 'node:module';
import type { ReliabilityBin } from './calibration-metrics.js';

export interface ReliabilityPanel {
  readonly before: readonly ReliabilityBin[];
  readonly after: readonly ReliabilityBin[];
}

type Colour = readonly [number, number, number];

/** Colours of the diagram; the CLI prints this legend beside the file name. */
export const RELIABILITY_COLOURS = {
  before: [230, 140, 40] as Colour,
  after: [40, 110, 220] as Colour,
  diagonal: [150, 150, 150] as Colour,
  axes: [0, 0, 0] as Colour,
} as const;

const PLOT = 320;
const MARGIN = 40;
const PANEL = PLOT + 2 * MARGIN;

/**
 * Draws one reliability diagram per panel side by side: x is top-label confidence, y the accuracy in
 * that confidence bin; the grey diagonal is perfect calibration; each bin shows the accuracy before
 * (orange, left half) and after (blue, right half) temperature scaling. Axes carry ticks every 0.1.
 */
export function renderReliabilityDiagram(panels: readonly ReliabilityPanel[]): Buffer {
  const { PNG } = loadPngjs();
  const png = new PNG({ width: PANEL * Math.max(1, panels.length), height: PANEL });
  png.data.fill(255);
  const paint = (x: number, y: number, [r, g, b]: Colour) => {
    if (x < 0 || y < 0 || x >= png.width || y >= png.height) return;
    const offset = (png.width * Math.round(y) + Math.round(x)) * 4;
    png.data[offset] = r;
    png.data[offset + 1] = g;
    png.data[offset + 2] = b;
    png.data[offset + 3] = 255;
  };
  const fill = (x0: number, y0: number, x1: number, y1: number, colour: Colour) => {
    for (let x = Math.round(x0); x < Math.round(x1); x += 1) {
      for (let y = Math.round(y0); y < Math.round(y1); y += 1) paint(x, y, colour);
    }
  };

  panels.forEach((panel, index) => {
    const originX = index * PANEL + MARGIN;
    const originY = MARGIN + PLOT; // the plot's bottom-left corner; y grows downwards in the image
    const toX = (value: number) => originX + value * PLOT;
    const toY = (value: number) => originY - value * PLOT;

    for (const [bins, half, colour] of [
      [panel.before, 0, RELIABILITY_COLOURS.before],
      [panel.after, 1, RELIABILITY_COLOURS.after],
    ] as const) {
      const width = 1 / bins.length;
      for (const bin of bins) {
        if (bin.count === 0) continue;
        const left = toX(bin.lower + (half * width) / 2) + 1;
        fill(left, toY(bin.accuracy), left + (width * PLOT) / 2 - 2, originY, colour);
      }
    }
    for (let step = 0; step <= PLOT; step += 1) {
      if (Math.floor(step / 4) % 2 === 0) paint(originX + step, originY - step, RELIABILITY_COLOURS.diagonal);
    }
    fill(originX - 1, originY - PLOT, originX + 1, originY + 1, RELIABILITY_COLOURS.axes);
    fill(originX - 1, originY - 1, originX + PLOT, originY + 1, RELIABILITY_COLOURS.axes);
    for (let tick = 0; tick <= 10; tick += 1) {
      fill(toX(tick / 10) - 0.5, originY, toX(tick / 10) + 0.5, originY + 6, RELIABILITY_COLOURS.axes);
      fill(originX - 6, toY(tick / 10) - 0.5, originX, toY(tick / 10) + 0.5, RELIABILITY_COLOURS.axes);
    }
  });
  return PNG.sync.write(png);
}

/**
 * pngjs, loaded when a diagram is drawn rather than with the engine package, which every server
 * and CLI start loads (bench/decision-startup.mjs). It is CommonJS, so `require` keeps this
 * function synchronous.
 */
function loadPngjs(): typeof import('pngjs') {
  return createRequire(import.meta.url)('pngjs') as typeof import('pngjs');
}
