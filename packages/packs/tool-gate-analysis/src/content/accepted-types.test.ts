import { describe, expect, it } from 'vitest';
import { judgeAcceptedTypes } from './accepted-types.js';

const codes = (removed: string, inserted: string) =>
  judgeAcceptedTypes(inserted, removed).map((finding) => finding.code);

describe('accepted file types that gain a type which runs', () => {
  it('an upload allow list gains HTML, SVG, server pages or every type, in any spelling', () => {
    expect(
      codes("ALLOWED_EXTENSIONS = {'png', 'jpg'}", "ALLOWED_EXTENSIONS = {'png', 'jpg', 'svg', 'php'}"),
    ).toEqual(['content.accepts-active-type:svg']);
    expect(
      codes(
        "const allowedMimeTypes = ['image/png'];",
        "const allowedMimeTypes = ['image/png', 'text/html'];",
      ),
    ).toEqual(['content.accepts-active-type:text/html']);
    expect(codes("allowedFileTypes: ['.png', '.jpg'],", "allowedFileTypes: ['*'],")).toEqual([
      'content.accepts-active-type:*',
    ]);
  });

  it('a type only displayed is routine, and so is a list that keeps its active types', () => {
    expect(
      codes("ALLOWED_EXTENSIONS = {'png', 'jpg'}", "ALLOWED_EXTENSIONS = {'png', 'jpg', 'webp', 'pdf'}"),
    ).toEqual([]);
    expect(
      codes("ALLOWED_EXTENSIONS = {'png', 'svg'}", "ALLOWED_EXTENSIONS = {'png', 'svg', 'gif'}"),
    ).toEqual([]);
    // A list that is not about what is accepted (a build's entry points) is not this.
    expect(codes("entries = ['main.js']", "entries = ['main.js', 'admin.js']")).toEqual([]);
  });
});
