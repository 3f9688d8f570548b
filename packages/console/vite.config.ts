// The console is a static bundle the config server serves from dist/: relative asset URLs (so it works under
// /-/console/ and behind a path-prefixing proxy), hashed file names (served as immutable), no CDN, no inline script.
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist/page',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // A CSP of script-src 'self' forbids inline scripts: keep even the module preload polyfill out of index.html.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
