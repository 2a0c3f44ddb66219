import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { enqueue } from '../../repositories/outbox.js';
import { insertDueDiligence } from '../../repositories/records.js';
import { nextReference } from '../../repositories/references.js';
import {
  TOO_LARGE_MESSAGE,
  TYPE_NOT_ALLOWED_MESSAGE,
  displayFileName,
  removeUpload,
  storeUpload,
  type UploadResult,
} from '../../services/uploads.js';
import { HttpError, clientOf, userOf } from '../../types.js';
import { clientParams, errors } from '../schemas.js';

/** The form's fields (the external form service's names) and what they hold. */
const FIELDS = {
  SingleLine: { label: 'Project name', required: true, max: 200 },
  SingleLine1: { label: 'Project address', required: true, max: 500 },
  SingleLine2: { label: 'City and postcode', required: true, max: 200 },
  SingleLine3: { label: 'Project description', required: true, max: 5000 },
  Currency1: { label: 'Build cost', required: false, max: 50 },
  Currency2: { label: 'GDV', required: false, max: 50 },
  Currency: { label: 'Loan amount', required: false, max: 50 },
  Email: { label: 'E-mail', required: false, max: 254 },
  SingleLine4: { label: 'Full name', required: false, max: 200 },
} as const;
type FieldName = keyof typeof FIELDS;
const FILE_FIELD = 'FileUpload';

const isField = (name: string): name is FieldName => Object.hasOwn(FIELDS, name);

interface Received {
  fields: Partial<Record<FieldName, string>>;
  upload: (UploadResult & { fileName: string }) | undefined;
  problem: string | undefined;
}

/** Reads every part (so the request is always fully consumed) and streams the file to disk. */
async function receive(request: FastifyRequest, uploadsDir: string): Promise<Received> {
  const received: Received = { fields: {}, upload: undefined, problem: undefined };
  try {
    await readParts(request, uploadsDir, received);
  } catch (error) {
    // A malformed body (no boundary, truncated, bad part headers): drop any file already kept, answer 4xx.
    if (received.upload?.status === 'stored')
      await removeUpload(uploadsDir, received.upload.storedName);
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    throw new HttpError(400, 'The form data is malformed. Please send the form again.');
  }
  return received;
}

async function readParts(
  request: FastifyRequest,
  uploadsDir: string,
  received: Received,
): Promise<void> {
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== FILE_FIELD || received.upload !== undefined) {
        received.problem ??= `Unknown field "${part.fieldname}".`;
        // `finished` also settles for a stream that has already ended (waiting for 'end' would hang).
        await finished(part.file.resume());
        continue;
      }
      const fileName = displayFileName(part.filename);
      const result = await storeUpload(part.file, part.filename, uploadsDir);
      received.upload = { ...result, fileName };
      continue;
    }
    const value = typeof part.value === 'string' ? part.value : String(part.value);
    if (part.fieldname === FILE_FIELD && value === '') continue; // "no file chosen"
    if (value.includes('\u0000') || part.fieldname.includes('\u0000')) {
      received.problem ??= `The field "${part.fieldname.split('\u0000').join('')}" contains a NUL character.`;
    } else if (!isField(part.fieldname)) {
      received.problem ??= `Unknown field "${part.fieldname}".`;
    } else if (received.fields[part.fieldname] !== undefined) {
      received.problem ??= `The field "${part.fieldname}" was sent twice.`;
    } else if (part.valueTruncated || value.length > FIELDS[part.fieldname].max) {
      received.problem ??= `The field "${part.fieldname}" (${FIELDS[part.fieldname].label}) is too long.`;
    } else {
      received.fields[part.fieldname] = value.trim();
    }
  }
}

/** POST /api/{client}/due-diligence: store the request and file durably, forward when configured. */
export default function dueDiligenceRoutes(app: FastifyInstance): void {
  const uploadsDir = path.join(app.config.dataDir, 'uploads');

  app.post<{ Params: { client: string } }>(
    '/api/:client/due-diligence',
    {
      schema: {
        summary: 'Request due diligence',
        description:
          'multipart/form-data with the form service’s field names: SingleLine (project name, required), ' +
          'SingleLine1 (project address, required), SingleLine2 (city and postcode, required), ' +
          'SingleLine3 (project description, required), Currency1 (build cost), Currency2 (GDV), ' +
          'Currency (loan amount), Email, SingleLine4 (full name) and FileUpload (optional; at most 20 MB; ' +
          'PDF, Word, Excel, PowerPoint, PNG, JPEG, GIF, WEBP, text or CSV, recognised by content). ' +
          'Stored, e-mailed to the team and forwarded to the form service (retried until accepted); ' +
          'answers 303 to /{client}/due-diligence?success=1.',
        tags: ['submissions'],
        security: [{ session: [] }],
        params: clientParams,
        consumes: ['multipart/form-data'],
        response: {
          303: {
            description: 'Stored: redirect to /{client}/due-diligence?success=1',
            type: 'null',
          },
          ...errors(400, 401, 403, 404, 413, 415),
        },
      },
      preHandler: app.requireUser,
    },
    async (request, reply) => {
      const client = clientOf(request);
      const user = userOf(request);
      if (!request.isMultipart()) {
        throw new HttpError(415, 'Send the form as multipart/form-data.');
      }
      const { fields, upload, problem } = await receive(request, uploadsDir);
      const stored = upload?.status === 'stored' ? upload : undefined;
      const discard = async () => {
        if (stored !== undefined) await removeUpload(uploadsDir, stored.storedName);
      };
      if (upload?.status === 'too-large') {
        await discard();
        throw new HttpError(413, TOO_LARGE_MESSAGE);
      }
      if (problem !== undefined) {
        await discard();
        throw new HttpError(400, problem);
      }
      if (upload?.status === 'type-not-allowed') throw new HttpError(415, TYPE_NOT_ALLOWED_MESSAGE);
      for (const [name, field] of Object.entries(FIELDS)) {
        if (field.required && (fields[name as FieldName] ?? '') === '') {
          await discard();
          throw new HttpError(400, `Missing required field "${name}" (${field.label}).`);
        }
      }

      const now = app.clock();
      const value = (name: FieldName) => fields[name] ?? '';
      const email = value('Email') || user.email;
      const fullName = value('SingleLine4') || `${user.first_name} ${user.last_name}`;
      const attachment =
        stored === undefined
          ? undefined
          : {
              path: stored.storedName,
              filename: stored.fileName,
              contentType: stored.type.mime,
            };
      try {
        await app.db.write(async (trx) => {
          const reference = await nextReference(trx, 'DD', now);
          await insertDueDiligence(trx, {
            reference,
            client_id: client.id,
            user_id: user.id,
            project_name: value('SingleLine'),
            project_address: value('SingleLine1'),
            city_postcode: value('SingleLine2'),
            project_description: value('SingleLine3'),
            build_cost: value('Currency1'),
            gdv: value('Currency2'),
            loan_amount: value('Currency'),
            email,
            full_name: fullName,
            attachment_path: stored?.storedName ?? null,
            attachment_name: stored?.fileName ?? null,
            attachment_size: stored?.size ?? null,
            attachment_sha256: stored?.sha256 ?? null,
            attachment_mime: stored?.type.mime ?? null,
            created_at: now.toISOString(),
          });
          const lines = Object.entries(FIELDS).map(
            ([name, field]) => `${field.label}: ${value(name as FieldName) || '—'}`,
          );
          await enqueue(
            trx,
            {
              kind: 'mail',
              payload: {
                to: app.config.teamEmail,
                subject: `Due diligence request ${reference} from ${client.name}`,
                text:
                  `A due diligence request was submitted on the ${client.name} portal (${client.prefix}).\n\n` +
                  `Reference: ${reference}\nSubmitted by: ${fullName} <${email}>\n\n${lines.join('\n')}\n\n` +
                  (stored === undefined
                    ? 'No file was attached.\n'
                    : `Attached: ${stored.fileName} (${stored.size} bytes, ${stored.type.mime}, ` +
                      `sha256 ${stored.sha256}).\n`),
                ...(attachment === undefined ? {} : { attachments: [attachment] }),
              },
            },
            now,
          );
          if (app.config.formServiceUrl !== null) {
            const formFields: Record<string, string> = {};
            for (const name of Object.keys(FIELDS) as FieldName[]) formFields[name] = value(name);
            formFields.Email = email;
            formFields.SingleLine4 = fullName;
            await enqueue(
              trx,
              {
                kind: 'forward',
                payload: {
                  url: app.config.formServiceUrl,
                  fields: formFields,
                  ...(attachment === undefined ? {} : { file: attachment }),
                },
              },
              now,
            );
          }
        });
      } catch (error) {
        await discard();
        throw error;
      }
      app.background.run(async () => {
        await app.outbox.runOnce();
      });
      return reply.redirect(`/${client.prefix}/due-diligence?success=1`, 303);
    },
  );
}
