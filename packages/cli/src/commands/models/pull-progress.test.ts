import { describe, expect, it } from 'vitest';
import { formatBytes, pullProgressRenderer } from './pull-progress.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return {
    written,
    stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream,
  };
}

const progress = (receivedBytes: number) =>
  ({
    type: 'progress',
    file: 'onnx/model.onnx',
    receivedBytes,
    totalBytes: 4096,
    resumedFromBytes: 0,
  }) as const;

describe('pull progress', () => {
  it('redraws one line in place on a terminal, ending with the verification line', () => {
    const { written, stream: out } = stream(true);
    const render = pullProgressRenderer(out);
    render(progress(0));
    render(progress(4096));
    render({ type: 'verified', file: 'onnx/model.onnx', bytes: 4096, sha256: 'ab'.repeat(32) });
    expect(written[0]).toMatch(/^\r\u001b\[2K {2}onnx\/model\.onnx {2}\[\.{24}\] {3}0% 0 B \/ 4\.1 kB$/);
    expect(written[1]).toContain(`[${'#'.repeat(24)}] 100%`);
    expect(written.at(-1)).toBe('  onnx/model.onnx: 4.1 kB, sha256 abababababababab… verified\n');
  });

  it('writes plain lines off a terminal: the file, each quarter, the verification', () => {
    const { written, stream: out } = stream(false);
    const render = pullProgressRenderer(out);
    for (let bytes = 0; bytes <= 4096; bytes += 256) render(progress(bytes));
    render({ type: 'verified', file: 'onnx/model.onnx', bytes: 4096, sha256: 'cd'.repeat(32) });
    expect(written).toEqual([
      '  onnx/model.onnx: 4.1 kB\n',
      '  onnx/model.onnx: 25%\n',
      '  onnx/model.onnx: 50%\n',
      '  onnx/model.onnx: 75%\n',
      '  onnx/model.onnx: 4.1 kB, sha256 cdcdcdcdcdcdcdcd… verified\n',
    ]);
    expect(written.join('')).not.toContain('\r');
  });

  it('formats sizes in the decimal units the docs use', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(4096)).toBe('4.1 kB');
    expect(formatBytes(87_200_000)).toBe('87 MB');
    expect(formatBytes(999_900)).toBe('1.0 MB');
    expect(formatBytes(3_011_777_440)).toBe('3.0 GB');
  });
});
