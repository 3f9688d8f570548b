/**
 * Serves the console's built page (packages/console/dist/page) with @fastify/static: `index.html` must be
 * revalidated on every load (`no-cache`), so a new deployment shows at once; everything under assets/ has a
 * content hash in its name and never changes (`immutable`, a year). A Content-Security-Policy allows only the
 * server's own scripts, styles and API: the page has no inline script and loads nothing from elsewhere.
 */
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { springErrorBody } from '@confbus/core';
import { serverErrors } from '../errors.js';
import { CONSOLE_PATH } from './console-context.js';

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export async function registerConsoleAssets(app: FastifyInstance, dir: string | undefined): Promise<void> {
  // Relative asset URLs need the trailing slash.
  app.get(CONSOLE_PATH, (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`, 301));
  if (dir === undefined) {
    const { status, code } = serverErrors.CONFBUS_CONSOLE_NOT_BUILT;
    app.get(`${CONSOLE_PATH}/`, (request, reply) =>
      reply
        .code(status)
        .send(
          springErrorBody(
            status,
            code,
            'The console page is not built (run `npm run build`); its JSON API answers under /-/console/api/',
            request.url,
          ),
        ),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: `${CONSOLE_PATH}/`,
    // Routes for the files present at start, rather than a wildcard that would also shadow the API's 404s.
    wildcard: false,
    index: ['index.html'],
    cacheControl: false,
    setHeaders: (response: { setHeader(name: string, value: string): unknown }, path: string) => {
      const immutable = path.startsWith(join(dir, 'assets'));
      response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      response.setHeader('x-content-type-options', 'nosniff');
      if (path.endsWith('.html')) {
        response.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
        response.setHeader('referrer-policy', 'no-referrer');
      }
    },
  });
}
