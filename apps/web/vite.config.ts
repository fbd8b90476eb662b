import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import webPackage from "./package.json" with { type: "json" };

// In development the API runs on its own port; the browser talks to Vite only, so proxy the
// server's paths (same origin keeps better-auth's cookies and origin checks simple).
const apiTarget = process.env.HEARTH_API_URL ?? "http://localhost:3000";
const proxiedPaths = ["/api", "/v1", "/metrics"];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: {
    // Shown on the error screen when the server's version is unknown (the server may be down).
    __WEB_VERSION__: JSON.stringify(webPackage.version),
  },
  server: {
    proxy: Object.fromEntries(proxiedPaths.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
  },
  preview: {
    proxy: Object.fromEntries(proxiedPaths.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    // The budget is 200 KB gzipped for the initial JS; warn well before minified size gets there.
    chunkSizeWarningLimit: 400,
  },
});
