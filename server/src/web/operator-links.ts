/**
 * The utility routes of the operator's document tools on the shop's origin (requirements R2.2: /pdf,
 * /generate, /email, /send, /paid): each sends the browser to the same tool in the operator console, on the
 * operator origin, with the order number it was given. Nothing is shown or done here: an operator
 * signs in there, anyone else meets the console's sign-in.
 */
import type { FastifyInstance } from 'fastify';

export const DOCUMENT_TOOLS = ['pdf', 'generate', 'email', 'send', 'paid'] as const;
export type DocumentTool = (typeof DOCUMENT_TOOLS)[number];

/** The console's page of a tool (server/console: `/ops/doklady/<tool>`). */
export const consoleToolPath = (tool: DocumentTool) => `/ops/doklady/${tool}`;

export function operatorLinks(app: FastifyInstance, options: { opsUrl: string }): void {
  for (const tool of DOCUMENT_TOOLS) {
    app.get<{ Querystring: { order?: string } }>(`/${tool}`, async (request, reply) => {
      const order = request.query.order;
      const query = typeof order === 'string' && /^[0-9]{6,16}$/.test(order) ? `?order=${order}` : '';
      return reply.header('cache-control', 'no-store').redirect(`${options.opsUrl}${consoleToolPath(tool)}${query}`, 302);
    });
  }
}
