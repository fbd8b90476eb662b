/// <reference types="vite/client" />

/** Version of the web client package, injected at build time (vite.config.ts). */
declare const __WEB_VERSION__: string;
