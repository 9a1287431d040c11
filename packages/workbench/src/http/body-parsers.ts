import { errorCodes, type FastifyInstance } from 'fastify';

/**
 * Request bodies: an empty body (no bytes, or only whitespace) is no body, whatever its content type, so a
 * body-less action (`POST /api/projects/{id}/init`) sent with `content-type: application/json` and nothing
 * else, as many HTTP clients send it, works; a route that needs a body still answers 400 INVALID_PARAMS
 * naming it. Non-empty JSON goes through Fastify's own parser (prototype poisoning refused): malformed JSON
 * stays a 400 in the error shape, and a non-empty body of a type nobody reads stays 415.
 */
export function installBodyParsers(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  const empty = (body: string | Buffer) => body.length === 0 || String(body).trim() === '';
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (empty(body)) done(null, undefined);
    else json(request, String(body), done);
  });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    done(null, empty(body) ? undefined : body);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    if (empty(body)) done(null, undefined);
    else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
  });
}
