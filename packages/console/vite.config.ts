import { defineConfig } from 'vite';

// Served by `arbiter serve` under /console with a strict Content-Security-Policy: no inline
// script (no module-preload polyfill), no data: assets, hashed file names under assets/.
export default defineConfig({
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    rollupOptions: {
      // The gate page redacts call text with @arbiter/decision's rules. Its modules only declare
      // (schemas, rules, functions), so what the console does not import is left out, zod included.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]decision[\\/]/.test(id) },
    },
  },
});
