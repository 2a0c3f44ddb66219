import type { FastifyInstance } from 'fastify';
import { HOUR } from '../../clock.js';
import {
  BTR_LIMITS,
  BTR_TERMS,
  BUILDING_WARRANTY_LIMITS,
  BUILD_TYPES,
  CAR_PROPERTY_TYPES,
  PricingInputError,
  STAGES,
  formatPounds,
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  type BtrTermMonths,
  type BuildType,
  type CarPropertyType,
  type Stage,
} from '@firm/pricing';
import type { QuoteKind } from '../../db/schema.js';
import type { Client } from '../../repositories/clients.js';
import { enqueue } from '../../repositories/outbox.js';
import { findQuoteByIdempotencyKey, insertQuote } from '../../repositories/records.js';
import { nextReference } from '../../repositories/references.js';
import { addressKey } from '../../services/address-key.js';
import { NO_ROOM_MESSAGE } from '../../services/disk-space.js';
import { UserAndAddressLimit } from '../../services/rate-window.js';
import {
  IDEMPOTENCY_KEY_REUSED,
  idempotencyKeyOf,
  isUniqueViolation,
} from '../../services/idempotency.js';
import { HttpError, clientOf, userOf } from '../../types.js';
import {
  FULL_NAME_MAX_LENGTH,
  LINE_BREAK,
  clientParams,
  emailField,
  errors,
  phoneField,
  requiredText,
} from '../schemas.js';

/**
 * Figures the browser computed (its estimate, premiums, totals): accepted, so the portal may send what it
 * shows, and then dropped. The server recomputes the quote and never uses, stores, mails or answers them: the
 * stored input is the submission without them (`withoutBrowserFigures`).
 */
const browserFigure = { type: ['number', 'string'], maxLength: 50 } as const;
const money = { type: 'number' } as const;

const warrantyBody = {
  type: 'object',
  properties: {
    build_type: { type: 'string', enum: [...BUILD_TYPES] },
    stageType: { type: 'string', enum: [...STAGES] },
    units: { type: 'number' },
    build_value: money,
    GDV: money,
    name: requiredText(FULL_NAME_MAX_LENGTH),
    telephone: phoneField,
    email: emailField,
    buildCostValue: browserFigure,
    totalPercentage: browserFigure,
    estimateValue: browserFigure,
  },
  required: [
    'build_type',
    'stageType',
    'units',
    'build_value',
    'GDV',
    'name',
    'telephone',
    'email',
  ],
  additionalProperties: false,
} as const;

const btrBody = {
  type: 'object',
  properties: {
    stage: { type: 'string', enum: [...STAGES] },
    stageValue: browserFigure,
    units: { type: 'number' },
    sum_insured: money,
    GDV: money,
    includeRentCoverLoss: { type: 'boolean' },
    anticipatedRentalIncome: money,
    term: { type: 'number', enum: [...BTR_TERMS] },
    programmeMonths: { type: 'number' },
    name: requiredText(FULL_NAME_MAX_LENGTH),
    email: emailField,
    contact_number: phoneField,
    subTotal: browserFigure,
    ipt: browserFigure,
    total: browserFigure,
    est: browserFigure,
  },
  required: [
    'stage',
    'units',
    'sum_insured',
    'GDV',
    'includeRentCoverLoss',
    'name',
    'email',
    'contact_number',
  ],
  // `required` too: without it a body that leaves out includeRentCoverLoss would match `if` and be told
  // the loss of rent fields are missing, not the flag.
  if: { properties: { includeRentCoverLoss: { const: true } }, required: ['includeRentCoverLoss'] },
  then: { required: ['anticipatedRentalIncome', 'term', 'programmeMonths'] },
  additionalProperties: false,
} as const;

const carBody = {
  type: 'object',
  properties: {
    propertyType: { type: 'string', enum: [...CAR_PROPERTY_TYPES] },
    contractWorksValue: money,
    stageType: { type: 'string', enum: [...STAGES] },
    units: { type: 'number' },
    build_value: money,
    GDV: money,
    name: requiredText(FULL_NAME_MAX_LENGTH),
    telephone: phoneField,
    email: emailField,
    lowPremium: browserFigure,
    mediumPremium: browserFigure,
    highPremium: browserFigure,
  },
  required: ['propertyType', 'contractWorksValue', 'name', 'telephone', 'email'],
  additionalProperties: false,
} as const;

interface WarrantyBody {
  build_type: BuildType;
  stageType: Stage;
  units: number;
  build_value: number;
  GDV: number;
  name: string;
  telephone: string;
  email: string;
}
interface BtrBody {
  stage: Stage;
  units: number;
  sum_insured: number;
  GDV: number;
  includeRentCoverLoss: boolean;
  anticipatedRentalIncome?: number;
  term?: BtrTermMonths;
  programmeMonths?: number;
  name: string;
  email: string;
  contact_number: string;
}
interface CarBody {
  propertyType: CarPropertyType;
  contractWorksValue: number;
  stageType?: Stage;
  units?: number;
  build_value?: number;
  GDV?: number;
  name: string;
  telephone: string;
  email: string;
}

interface Priced {
  quote: object & { rateTableVersion: string };
  contact: { name: string; phone: string; email: string };
  lines: string[];
}

interface Calculator<B> {
  kind: QuoteKind;
  path: string;
  prefix: string;
  title: string;
  /** The title as it reads inside a sentence ("a BTR warranty … quote", not "a btr warranty"). */
  noun: string;
  body: object;
  /** Library field → submission field, to name the bad field in the submission's own terms. */
  fields: Record<string, string>;
  price(body: B): Priced;
}

const calculators = [
  {
    kind: 'warranty',
    path: 'warranty',
    prefix: 'BW',
    title: 'Building warranty',
    noun: 'building warranty',
    body: warrantyBody,
    fields: {
      buildType: 'build_type',
      stage: 'stageType',
      units: 'units',
      sumInsured: 'build_value',
      gdv: 'GDV',
    },
    price: (b: WarrantyBody): Priced => {
      const quote = quoteBuildingWarranty({
        buildType: b.build_type,
        stage: b.stageType,
        units: b.units,
        sumInsured: b.build_value,
        gdv: b.GDV,
      });
      return {
        quote,
        contact: { name: b.name, phone: b.telephone, email: b.email },
        lines: [
          `Build type: ${b.build_type}`,
          `Stage: ${b.stageType}`,
          `Units: ${b.units}`,
          `Sum insured: ${formatPounds(b.build_value)}`,
          `GDV: ${formatPounds(b.GDV)}`,
          `Total rate: ${quote.totalPercentage}%`,
          `Estimate: ${formatPounds(quote.estimate)}`,
        ],
      };
    },
  } satisfies Calculator<WarrantyBody>,
  {
    kind: 'btr',
    path: 'btr',
    prefix: 'BTR',
    title: 'BTR warranty + loss of rent',
    noun: 'BTR warranty + loss of rent',
    body: btrBody,
    fields: {
      stage: 'stage',
      units: 'units',
      sumInsured: 'sum_insured',
      gdv: 'GDV',
      lossOfRent: 'includeRentCoverLoss',
      'lossOfRent.anticipatedRentalIncome': 'anticipatedRentalIncome',
      'lossOfRent.termMonths': 'term',
      'lossOfRent.programmeMonths': 'programmeMonths',
    },
    price: (b: BtrBody): Priced => {
      if (
        !b.includeRentCoverLoss &&
        (b.anticipatedRentalIncome !== undefined ||
          b.term !== undefined ||
          b.programmeMonths !== undefined)
      ) {
        // Not priced, but stored with the submission: a loss of rent figure sent with the cover left out
        // must still be one the library takes (400 naming it otherwise), never recorded unchecked.
        quoteBtrWarranty({
          stage: b.stage,
          units: b.units,
          sumInsured: b.sum_insured,
          gdv: b.GDV,
          lossOfRent: {
            anticipatedRentalIncome:
              b.anticipatedRentalIncome ?? BTR_LIMITS.anticipatedRentalIncome.default,
            termMonths: b.term ?? BTR_TERMS[0],
            programmeMonths: b.programmeMonths ?? BTR_LIMITS.programmeMonths.default,
          },
        });
      }
      const lossOfRent =
        b.includeRentCoverLoss &&
        b.anticipatedRentalIncome !== undefined &&
        b.term !== undefined &&
        b.programmeMonths !== undefined
          ? {
              anticipatedRentalIncome: b.anticipatedRentalIncome,
              termMonths: b.term,
              programmeMonths: b.programmeMonths,
            }
          : undefined;
      const quote = quoteBtrWarranty({
        stage: b.stage,
        units: b.units,
        sumInsured: b.sum_insured,
        gdv: b.GDV,
        ...(lossOfRent === undefined ? {} : { lossOfRent }),
      });
      return {
        quote,
        contact: { name: b.name, phone: b.contact_number, email: b.email },
        lines: [
          `Stage: ${b.stage}`,
          `Units: ${b.units}`,
          `Sum insured: ${formatPounds(b.sum_insured)}`,
          `GDV: ${formatPounds(b.GDV)}`,
          lossOfRent === undefined
            ? 'Loss of rent: not included'
            : `Loss of rent: ${formatPounds(lossOfRent.anticipatedRentalIncome)} a year, ` +
              `${lossOfRent.termMonths} months, programme ${lossOfRent.programmeMonths} months`,
          `Warranty premium: ${formatPounds(quote.warrantyPremium)}`,
          `Loss of rent premium: ${formatPounds(quote.lossOfRentPremium)}`,
          `Sub-total: ${formatPounds(quote.subTotal)}`,
          `IPT: ${formatPounds(quote.ipt)}`,
          `Total: ${formatPounds(quote.total)}`,
        ],
      };
    },
  } satisfies Calculator<BtrBody>,
  {
    kind: 'car',
    path: 'car',
    prefix: 'CAR',
    title: 'Contractors all risks',
    noun: 'contractors all risks',
    body: carBody,
    fields: {
      propertyType: 'propertyType',
      contractWorksValue: 'contractWorksValue',
      stage: 'stageType',
      units: 'units',
      sumInsured: 'build_value',
      gdv: 'GDV',
    },
    price: (b: CarBody): Priced => {
      if (
        b.stageType !== undefined ||
        b.units !== undefined ||
        b.build_value !== undefined ||
        b.GDV !== undefined
      ) {
        // Not priced, but stored with the submission (the spec's CAR submission carries them): each must be
        // one the building warranty's sliders offer (400 naming it otherwise), never recorded unchecked
        // (units -5, a build value of £1.50).
        const limits = BUILDING_WARRANTY_LIMITS;
        quoteBuildingWarranty({
          buildType: BUILD_TYPES[0],
          stage: b.stageType ?? STAGES[0],
          units: b.units ?? limits.units.default,
          sumInsured: b.build_value ?? limits.sumInsured.default,
          gdv: b.GDV ?? limits.gdv.default,
        });
      }
      const quote = quoteContractorsAllRisks({
        propertyType: b.propertyType,
        contractWorksValue: b.contractWorksValue,
      });
      return {
        quote,
        contact: { name: b.name, phone: b.telephone, email: b.email },
        lines: [
          `Property type: ${b.propertyType}`,
          `Contract works value: ${formatPounds(b.contractWorksValue)}`,
          `Low: ${formatPounds(quote.low)}`,
          `Medium: ${formatPounds(quote.medium)}`,
          `High: ${formatPounds(quote.high)}`,
        ],
      };
    },
  } satisfies Calculator<CarBody>,
] as const;

/** Room a stored quote may take at most (its row, its mail, their journal): far more than it does. */
const QUOTE_BYTES = 64 * 1024;

function priceOrExplain<B>(calculator: Calculator<B>, body: B): Priced {
  try {
    return calculator.price(body);
  } catch (error) {
    if (error instanceof PricingInputError) {
      const message = error.issues
        .map((issue) => `${calculator.fields[issue.field] ?? issue.field}: ${issue.message}`)
        .join(' ');
      throw new HttpError(400, message);
    }
    throw error;
  }
}

/**
 * Every character a mail reader may break a line at (CR, LF, VT, FF, NEL, line and paragraph separators).
 * The contact fields' schema refuses line breaks; the e-mail does not rely on it.
 */
const ANY_LINE_BREAK = new RegExp(`[${LINE_BREAK}]`, 'gu');

/** Text the sender chose, kept on its own line of the team's e-mail: any line break becomes a space. */
const oneLine = (text: string): string => text.replace(ANY_LINE_BREAK, ' ');

function teamMail(
  client: Client,
  calculator: { title: string; noun: string },
  reference: string,
  priced: Priced,
) {
  const { name, phone, email } = priced.contact;
  return {
    to: '',
    // References are numbered per client (two clients may both hold BW-2026-000001): the subject and the
    // reference's line name the client by its prefix, which is unique, as well as by its name.
    subject: `${calculator.title} enquiry ${reference} from ${client.name} (${client.prefix})`,
    text:
      `A ${calculator.noun} quote was submitted on the ${client.name} portal (${client.prefix}).\n\n` +
      `Reference: ${reference}\nClient: ${client.name} (${client.prefix})\n` +
      `Name: ${oneLine(name)}\nTelephone: ${oneLine(phone)}\nE-mail: ${oneLine(email)}\n\n` +
      `${priced.lines.join('\n')}\n\nRate table version: ${priced.quote.rateTableVersion}\n` +
      'The figures were recomputed by the server; they are indicative only.\n',
  };
}

/** Each calculator's fields that carry a figure the browser computed, read from its body schema. */
const browserFigureFields = new Map<QuoteKind, ReadonlySet<string>>(
  calculators.map((calculator) => [
    calculator.kind,
    new Set(
      Object.entries(calculator.body.properties)
        .filter(([, schema]) => schema === browserFigure)
        .map(([name]) => name),
    ),
  ]),
);

/** The submission as it is stored: the body without the figures the browser computed. */
function withoutBrowserFigures(
  calculator: { kind: QuoteKind },
  body: Record<string, unknown>,
): Record<string, unknown> {
  const figures = browserFigureFields.get(calculator.kind);
  return Object.fromEntries(Object.entries(body).filter(([name]) => !figures?.has(name)));
}

/**
 * Whether a stored submission (its `input` JSON) is the one sent now: the same fields, the same values, the
 * browser's figures left out on both sides (they are not part of it; rows stored before they were dropped
 * still hold them).
 */
function sameSubmission(
  calculator: { kind: QuoteKind },
  stored: string,
  sent: Record<string, unknown>,
): boolean {
  const earlier = withoutBrowserFigures(calculator, JSON.parse(stored) as Record<string, unknown>);
  const body = withoutBrowserFigures(calculator, sent);
  const names = Object.keys(body);
  return (
    names.length === Object.keys(earlier).length &&
    names.every((name) => Object.hasOwn(earlier, name) && earlier[name] === body[name])
  );
}

type EarlierQuote = NonNullable<Awaited<ReturnType<typeof findQuoteByIdempotencyKey>>>;

export const TOO_MANY_QUOTES =
  'Too many quotes in an hour. Please try again later, or call or e-mail the team.';

/**
 * The three calculator submissions: validate, recompute, store with a reference, queue a team e-mail. At most
 * QUOTE_LIMIT_PER_HOUR stored a user and hour (the three together) and QUOTE_LIMIT_PER_ADDRESS an address, then
 * 429: each one stored e-mails the team, and one session posted 150 in two seconds, which is 290,000 e-mails an hour
 * (found by the twenty-second session's API probe; due diligence requests and logins had limits, quotes had none).
 */
export default function submissionRoutes(app: FastifyInstance): void {
  const limit = new UserAndAddressLimit(
    app.config.quotesPerHour,
    app.config.quotesPerAddressPerHour,
    HOUR,
  );
  /**
   * The stores under way in this process, by user and Idempotency-Key: a resend refused by the limit while the
   * first copy is still being stored waits for it, and is answered from it. Found by the thirty-third session's
   * race probe: at the hour's last quote, copies of one keyed submission sent together (a Try again while the
   * first was slow to answer, a double send) were answered 429 "Too many quotes", so the portal said the details
   * had not reached the team, while the first copy stored and mailed them.
   */
  const storing = new Map<string, Promise<unknown>>();
  for (const calculator of calculators as readonly Calculator<never>[]) {
    app.post<{ Params: { client: string }; Body: Record<string, unknown> }>(
      `/api/:client/${calculator.path}`,
      {
        schema: {
          summary: `Submit a ${calculator.noun} quote`,
          description:
            'The server recomputes the quote with @firm/pricing (figures sent by the browser are accepted and ' +
            'dropped: never used, stored, e-mailed or answered), ' +
            'stores it with a reference and the rate-table version, and e-mails the team. With an ' +
            '`Idempotency-Key` header (1–255 visible ASCII characters), the same submission sent again by the ' +
            'same user is answered from the stored one (`Idempotent-Replayed: true`; nothing stored or mailed ' +
            'again), and a different submission under that key gets 409. At most QUOTE_LIMIT_PER_HOUR (60) ' +
            'stored or answered again a user and hour, the three calculators together, and ' +
            'QUOTE_LIMIT_PER_ADDRESS (300) an address and hour, then 429 with `Retry-After`; a resend under ' +
            'the key of a quote already stored (or being stored by this instance) is answered from it past the ' +
            'limit too.',
          tags: ['submissions'],
          security: [{ session: [] }],
          params: clientParams,
          body: calculator.body,
          response: {
            201: {
              type: 'object',
              properties: {
                reference: { type: 'string', example: `${calculator.prefix}-2026-000123` },
                quote: { type: 'object', additionalProperties: true },
              },
              required: ['reference', 'quote'],
              additionalProperties: false,
            },
            ...errors(400, 401, 403, 404, 409, 429, 507),
          },
        },
        preValidation: app.requireUser,
      },
      async (request, reply) => {
        const client = clientOf(request);
        const user = userOf(request);
        const key = idempotencyKeyOf(request.headers['idempotency-key']);
        const priced = priceOrExplain(calculator, request.body as never);
        // Counted once the submission is known to be well formed, and given back if nothing comes of it (a 409, a
        // 507, a failed write): only quotes stored, and resends answered from them, count.
        const hitMs = app.clock().getTime();
        const address = addressKey(request.ip);
        const waitMs = limit.hit(user.id, address, hitMs);
        const storingKey = key === undefined ? undefined : `${user.id}\u0000${key}`;
        if (waitMs > 0) {
          // A resend of a quote stored before (its answer lost) is answered from it all the same: refused, the
          // portal said the details had not reached the team, which they had (found by the twenty-second
          // session's probe).
          // One being stored just now (its copy sent together with this one) is waited for.
          if (storingKey !== undefined) await storing.get(storingKey)?.catch(() => undefined);
          const earlier =
            key === undefined
              ? undefined
              : await findQuoteByIdempotencyKey(app.db.kysely, client.id, user.id, key);
          if (earlier !== undefined) return replay(earlier);
          void reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
          throw new HttpError(429, TOO_MANY_QUOTES);
        }
        const answering = answer();
        // The first copy under way is the one waited for: a later copy finds its row, or is answered from it.
        if (storingKey !== undefined && !storing.has(storingKey)) {
          storing.set(storingKey, answering);
          void answering
            .catch(() => undefined)
            .finally(() => {
              if (storing.get(storingKey) === answering) storing.delete(storingKey);
            });
        }
        try {
          return await answering;
        } catch (error) {
          limit.release(user.id, address, hitMs);
          throw error;
        }

        async function answer() {
          if (!(await app.diskSpace.allows(QUOTE_BYTES))) throw new HttpError(507, NO_ROOM_MESSAGE);
          const stored: { earlier: EarlierQuote } | { reference: string } = await app.db
            .write<{ earlier: EarlierQuote } | { reference: string }>(async (trx) => {
              // Looked up in the transaction that would store it: on SQLite a resend in the same batch finds the
              // first one's row; on PostgreSQL a resend racing the first meets the unique index (below).
              if (key !== undefined) {
                const earlier = await findQuoteByIdempotencyKey(trx, client.id, user.id, key);
                if (earlier !== undefined) return { earlier };
              }
              return { reference: await store(trx) };
            })
            .catch(async (error: unknown) => {
              if (key === undefined || !isUniqueViolation(error)) throw error;
              const earlier = await findQuoteByIdempotencyKey(
                app.db.kysely,
                client.id,
                user.id,
                key,
              );
              if (earlier === undefined) throw error;
              return { earlier };
            });
          if ('earlier' in stored) return replay(stored.earlier);
          app.background.run(async () => {
            await app.outbox.runOnce();
          });
          return reply.code(201).send({ reference: stored.reference, quote: priced.quote });
        }

        /** The answer to a resend under a key already used: the stored quote, or 409 for another submission. */
        function replay(earlier: EarlierQuote) {
          if (
            earlier.kind !== calculator.kind ||
            !sameSubmission(calculator, earlier.input, request.body)
          ) {
            throw new HttpError(409, IDEMPOTENCY_KEY_REUSED);
          }
          return reply
            .code(201)
            .header('idempotent-replayed', 'true')
            .send({ reference: earlier.reference, quote: JSON.parse(earlier.quote) as unknown });
        }

        async function store(trx: typeof app.db.kysely): Promise<string> {
          const now = app.clock();
          const ref = await nextReference(trx, client.id, calculator.prefix, now);
          await insertQuote(
            trx,
            {
              reference: ref,
              kind: calculator.kind,
              clientId: client.id,
              userId: user.id,
              input: withoutBrowserFigures(calculator, request.body),
              quote: priced.quote,
              rateTableVersion: priced.quote.rateTableVersion,
              contactName: priced.contact.name.trim(),
              contactPhone: priced.contact.phone.trim(),
              contactEmail: priced.contact.email.trim(),
              idempotencyKey: key,
            },
            now,
          );
          const mail = teamMail(client, calculator, ref, priced);
          await enqueue(trx, { kind: 'mail', payload: { ...mail, to: app.config.teamEmail } }, now);
          return ref;
        }
      },
    );
  }
}
