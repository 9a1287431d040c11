import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The workbench service (default http://127.0.0.1:8000) serves the built files at `/`; in development this
// server (port 3000) serves the sources and forwards the API, the health check, the docs and the WebSocket.
const service = process.env.WORKBENCH_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api/ws': { target: service, ws: true, changeOrigin: true },
      '/api': { target: service, changeOrigin: true },
      '/health': { target: service, changeOrigin: true },
      '/docs': { target: service, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 600 },
});
