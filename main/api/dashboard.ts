import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

/** The dashboard's Content-Security-Policy: only our own origin, no inline script. */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the built dashboard at `/` with a strict CSP; other paths fall back to index.html. */
export function createDashboardRouter(rendererDir: string): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Content-Security-Policy', DASHBOARD_CSP);
    res.set('X-Content-Type-Options', 'nosniff');
    res.set('Referrer-Policy', 'no-referrer');
    next();
  });
  router.use(express.static(rendererDir, { index: 'index.html', maxAge: 0 }));
  router.get(/^\/(?!api\/).*/, (req, res, next) => {
    // A WebSocket (or other) upgrade is no page load: refused by the JSON 404, connection closed.
    if (req.headers.upgrade !== undefined) {
      res.set('Connection', 'close');
      return next();
    }
    const index = path.join(rendererDir, 'index.html');
    if (fs.existsSync(index)) res.sendFile(index);
    else res.status(503).type('text/plain').send('Dashboard not built: run `npm run build`.');
  });
  return router;
}
