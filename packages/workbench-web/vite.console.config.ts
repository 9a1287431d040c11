import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// keel-web's runtime console: a second app on the same UI kit (src/components, src/kit.css), built on its own
// into dist/console/ (after the workbench's build, which empties dist/) and served by keel-web at /console.
// In development this server (port 3001) serves the sources and forwards the runtime API to keel-web.
const server = process.env.KEEL_WEB_URL ?? 'http://127.0.0.1:8000';
const forward = { target: server, changeOrigin: true };

export default defineConfig({
  root: join(import.meta.dirname, 'src', 'console'),
  base: '/console/',
  publicDir: false,
  plugins: [react()],
  server: {
    port: 3001,
    strictPort: true,
    proxy: {
      '/runtime': forward,
      '/api': forward,
      '/console/info': forward,
      '/config': forward,
      '/health': forward,
      '/docs': forward,
    },
  },
  build: {
    outDir: join(import.meta.dirname, 'dist', 'console'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
});
