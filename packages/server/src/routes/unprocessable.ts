import { KeelError } from '@keel/runtime';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorBody } from '../errors.ts';

/**
 * The web project and task endpoints answer an invalid field with 422 (spec section 7, rule 2), in the
 * one error shape: `{"error": {"code": "INVALID_PARAMS", "message": "<field>: <reason>", "details":
 * {"issues": [{"field", "message"}, …]}}}`. Fields are named by where they are: `body.name`,
 * `body.code_paths.1`, `querystring.limit`. Everything else (a missing record, malformed JSON, a server fault)
 * goes on to the server's own handler. Installed in the endpoints' plugin, so it covers only them.
 */
export function answerInvalidFieldsWith422(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        field: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message ?? 'is invalid',
      }));
      return reply
        .status(422)
        .send(errorBody({ code: 'INVALID_PARAMS', message: summary(issues), details: { issues } }));
    }
    if (KeelError.is(error) && error.code === 'INVALID_PARAMS' && Array.isArray(error.details?.issues)) {
      // The runtime names body fields plainly (`workdir`); here they are named as the 422s above are.
      const issues = (error.details.issues as { field: string; message: string }[]).map((issue) => ({
        field: /^(body|querystring|params)\./.test(issue.field) ? issue.field : `body.${issue.field}`,
        message: issue.message,
      }));
      return reply
        .status(422)
        .send(errorBody({ code: 'INVALID_PARAMS', message: summary(issues), details: { issues } }));
    }
    throw error;
  });
}

function summary(issues: { field: string; message: string }[]): string {
  const first = issues[0];
  return first ? `${first.field}: ${first.message}` : 'Invalid request.';
}
