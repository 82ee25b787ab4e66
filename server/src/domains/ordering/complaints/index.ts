/**
 * Complaints: the signed-in shopper's list, a new complaint as multipart/form-data (orderToken,
 * itemId, reason, description, photos: up to 5 files, 5 MB each), a photo of one's own complaint,
 * (the operator's change of a complaint's state is an operator route: ordering/operator).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import multipart from '@fastify/multipart';
import { accountCalls, RecordId } from '@shop/shared-kernel/schemas';
import { COMPLAINT_PHOTO_MAX_BYTES, COMPLAINT_PHOTO_MAX_COUNT, imageTypeOf } from '@shop/shared-kernel/rules';
import { callRoute } from '../../../infra/http/contract-route.ts';
import type { ApiDeps } from '../../../infra/deps.ts';
import { ApiError } from '../../../infra/http/errors.ts';
import { requireUser } from '../../../infra/auth/require-user.ts';
import { COMPLAINT_MESSAGES, ComplaintService, type ComplaintForm } from './complaint.service.ts';

/** Reads the complaint form; a photo that is not JPEG, PNG or WebP (by its first bytes) is refused. */
async function readForm(request: FastifyRequest): Promise<ComplaintForm> {
  if (!request.isMultipart()) throw new ApiError(415, 'bad_request', COMPLAINT_MESSAGES.multipart);
  const form: ComplaintForm = { fields: {}, photos: [] };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (data.length === 0) continue; // an empty file input
        const type = imageTypeOf(data);
        if (!type) throw new ApiError(422, 'validation_failed', COMPLAINT_MESSAGES.photoType);
        form.photos.push({ data, type });
      } else if (typeof part.value === 'string') {
        if (part.value.includes('\u0000')) throw new ApiError(400, 'bad_request', COMPLAINT_MESSAGES.unreadable);
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new ApiError(413, 'bad_request', COMPLAINT_MESSAGES.photoSize);
    }
    // A malformed or cut-off form (busboy's parse errors, a closed connection): the shopper's, not ours.
    request.log.info({ err: error }, 'complaint form could not be read');
    throw new ApiError(400, 'bad_request', COMPLAINT_MESSAGES.unreadable);
  }
  return form;
}

export const complaintRoutes: FastifyPluginAsync<ApiDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const complaints = new ComplaintService(deps.db, deps.iban, deps.files);
  await app.register(multipart, {
    limits: { fileSize: COMPLAINT_PHOTO_MAX_BYTES, files: COMPLAINT_PHOTO_MAX_COUNT, fields: 10, fieldSize: 4096, parts: 20 },
  });

  app.route({
    ...callRoute(accountCalls, 'GET /api/account/complaints'),
    handler: async (request) => {
      const user = await requireUser(request, deps);
      return { data: await complaints.list({ userId: user.id }) };
    },
  });

  /** multipart/form-data: no JSON body schema; the form is read and checked by readForm and the service. */
  app.route({
    ...callRoute(accountCalls, 'POST /api/account/complaints'),
    // Anything but a form is refused before a body parser sees it. The edge lets a form's 32 MB
    // through here; a JSON body past the API's limit would make Fastify answer 413 and close the
    // connection while nginx is still sending it, which nginx counts as the server failing.
    onRequest: async (request) => {
      if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? ''))
        throw new ApiError(415, 'bad_request', COMPLAINT_MESSAGES.multipart);
    },
    handler: async (request, reply) => {
      const user = await requireUser(request, deps);
      const form = await readForm(request);
      return reply.status(201).send({ data: await complaints.file(user.id, form) });
    },
  });

  /** The photo's bytes (not JSON, so no answer schema): only to the complaint's owner. */
  app.get(
    '/account/complaints/:id/photos/:photoId',
    { schema: { params: Type.Object({ id: RecordId, photoId: RecordId }) } },
    async (request, reply) => {
      const user = await requireUser(request, deps);
      const photo = await complaints.photo(user.id, request.params.id, request.params.photoId);
      return reply
        .type(photo.contentType)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(photo.data);
    },
  );
};
