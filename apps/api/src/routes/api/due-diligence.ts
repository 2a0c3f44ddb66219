import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HOUR } from '../../clock.js';
import { EMAIL_ADDRESS } from '../../email-address.js';
import {
  baseNameOf,
  parseHeaderParameters,
  type HeaderParameter,
  type HeaderWithParameters,
} from '../../header-parameters.js';
import { enqueue } from '../../repositories/outbox.js';
import {
  findDueDiligenceByIdempotencyKey,
  insertDueDiligence,
  type DueDiligenceRow,
} from '../../repositories/records.js';
import { nextReference } from '../../repositories/references.js';
import {
  EMPTY_FILE_MESSAGE,
  MAX_UPLOAD_BYTES,
  TOO_LARGE_MESSAGE,
  TEXT_NOT_UTF8_MESSAGE,
  TYPE_NOT_ALLOWED_MESSAGE,
  removeUpload,
  storeUpload,
  type UploadResult,
} from '../../services/uploads.js';
import { addressKey } from '../../services/address-key.js';
import { closeAfterAnswer } from '../../services/close-after-answer.js';
import { NO_ROOM_MESSAGE, isOutOfSpace } from '../../services/disk-space.js';
import {
  IDEMPOTENCY_KEY_REUSED,
  idempotencyKeyOf,
  isUniqueViolation,
} from '../../services/idempotency.js';
import { UserAndAddressLimit } from '../../services/rate-window.js';
import { shownText } from '../../services/shown-text.js';
import { HttpError, clientOf, userOf } from '../../types.js';
import {
  CONTROL_CHARACTER,
  FULL_NAME_MAX_LENGTH,
  FORMAT_CONTROL,
  LINE_BREAK,
  VISIBLE_CHARACTER,
  clientParams,
  errors,
  storedEmailAddress,
} from '../schemas.js';

/** What a body of another type than multipart/form-data is told (415). */
export const MULTIPART_ONLY_MESSAGE = 'Send the form as multipart/form-data.';

/** The form's fields (the external form service's names) and what they hold. */
const FIELDS = {
  SingleLine: { label: 'Project name', required: true, max: 200 },
  SingleLine1: { label: 'Project address', required: true, max: 500 },
  SingleLine2: { label: 'City and postcode', required: true, max: 200 },
  SingleLine3: { label: 'Project description', required: true, max: 5000, multiline: true },
  Currency1: { label: 'Build cost', required: false, max: 50 },
  Currency2: { label: 'GDV', required: false, max: 50 },
  Currency: { label: 'Loan amount', required: false, max: 50 },
  Email: { label: 'E-mail', required: false, max: 254 },
  SingleLine4: { label: 'Full name', required: false, max: FULL_NAME_MAX_LENGTH },
} as const;
type FieldName = keyof typeof FIELDS;
const FILE_FIELD = 'FileUpload';
/** The refusal of content sent under the file's field with no file name: a text field to the parser. */
const FILE_AS_TEXT =
  'The field "FileUpload" must be sent as a file, not as text: give its part a filename.';

const isField = (name: string): name is FieldName => Object.hasOwn(FIELDS, name);

/** Line breaks, which only the description may hold (elsewhere they would add lines to the team's e-mail). */
const ANY_LINE_BREAK = new RegExp(`[${LINE_BREAK}]`, 'u');

/** A line break as the description may hold it (CRLF counted once), to indent its later lines in the mail. */
const MAIL_LINE_BREAK = new RegExp(`\\r\\n|[${LINE_BREAK}]`, 'gu');
/**
 * A field as the team's e-mail shows it: the description's later lines indented, so that none of them reads as
 * a line of the mail itself (a description holding `Build cost: 5000000` put a second, forged build cost above
 * the real one).
 */
const mailText = (value: string): string => value.replace(MAIL_LINE_BREAK, '\n    ');

/** What no field holds, the description included: control characters and bidi controls (see schemas.ts). */
const HIDDEN_CONTROL = new RegExp(`[${CONTROL_CHARACTER}${FORMAT_CONTROL}]`, 'u');

/**
 * The amounts, as the form's sliders send them: whole pounds, digits only (`12500000`), or with a £ and commas. Only
 * a plain space may follow the £: `\s` also took U+FEFF and every Unicode space, stored and mailed between the £
 * and the figure (found by the eighteenth session's API probe).
 */
const WHOLE_POUNDS = /^£? ?(?:\d{1,15}|\d{1,3}(?:,\d{3}){1,4})$/u;
const AMOUNTS = ['Currency1', 'Currency2', 'Currency'] as const;

/** Why an optional field given is not what it names (an amount, an e-mail address), or `undefined`. */
function formatProblem(fields: Partial<Record<FieldName, string>>): string | undefined {
  for (const name of AMOUNTS) {
    const value = fields[name];
    if (value !== undefined && value !== '' && !WHOLE_POUNDS.test(value)) {
      return `The field "${name}" (${FIELDS[name].label}) must be a whole number of pounds, like 12500000.`;
    }
  }
  const email = fields.Email;
  if (email !== undefined && email !== '' && !EMAIL_ADDRESS.test(email)) {
    return 'The field "Email" (E-mail) must be an e-mail address.';
  }
  return undefined;
}

/** A required field must show a character, as the JSON routes' required text must (zero-width ones do not). */
const VISIBLE = new RegExp(VISIBLE_CHARACTER, 'u');

/**
 * The most a due-diligence request's body may be: a full-size file, nine short fields and the multipart
 * framing fit in far less. Past it nothing more is read (a 300 MB upload is refused after 24 MB, not at its end).
 */
export const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + 4 * 1024 * 1024;
/**
 * Once the file is over the limit, how long the rest of the request may take to arrive. The rest is read (and
 * dropped) so that a client that reads the answer only once it has sent everything (browsers do) sees the 413;
 * a client still sending after this is answered and cut off.
 */
export const DRAIN_MS = 2_000;

/**
 * How long the parser may take to finish once the whole body is in and a part's headers have been seen to be wrong,
 * before that problem is answered without it. @fastify/busboy drops such a part (no `Content-Disposition:
 * form-data`, say) and, when it holds more than 16 KB and its end arrives in the same read, never finishes the body:
 * the request went unanswered until the client gave up (found by the thirty-second session's multipart fuzz).
 */
export const STUCK_PARSER_MS = 1_000;
const FORM_TOO_LARGE_MESSAGE = 'The form is too large.';
export const TOO_MANY_REQUESTS =
  'Too many due diligence requests in an hour. Please try again later, or e-mail the team.';

/** The multipart library's refusals, in the portal's words (its own say "reach files limit", with a 413). */
const LIBRARY_REFUSALS: Record<string, string> = {
  FST_FILES_LIMIT: 'Only one file can be attached.',
  FST_FIELDS_LIMIT: 'Too many fields in the form.',
  FST_PARTS_LIMIT: 'Too many fields in the form.',
  FST_PROTO_VIOLATION: 'A field in the form has a name that is not allowed.',
};

/**
 * The multipart parser's limits on one part's headers (body-parsers.ts: `headerPairs`; the size is busboy's own
 * 80 KB). Past them it drops headers without a word, and a part whose Content-Disposition is dropped with
 * them is skipped whole: the form then said "Missing required field" about a field that was sent.
 */
const MAX_PART_HEADER_LINES = 100;
const MAX_PART_HEADER_BYTES = 80 * 1024;
const CRLF_CRLF = Buffer.from('\r\n\r\n');

/** A multipart boundary as RFC 2046 allows it (a quoted one may hold spaces, not at its end). */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/**
 * The boundary of a multipart Content-Type, or `undefined` when the header is not strictly well formed
 * (`parseHeaderParameters`: `b oundary=…`, which the parser reads as `boundary=…`), or its boundary is missing,
 * unusual, given twice, escaped, or given RFC 2231-encoded (`boundary*=UTF-8''…`, which the parser reads): the
 * part-header check must split the body exactly where the parser does, so a boundary it cannot be sure of is
 * refused rather than left unchecked.
 */
function boundaryOf(contentType: string | undefined): string | undefined {
  const boundary = plainBoundaryOf(contentType);
  return boundary !== undefined && BOUNDARY.test(boundary) ? boundary : undefined;
}

/**
 * The one boundary a multipart Content-Type gives plainly (once, not escaped, not RFC 2231-encoded), before its
 * characters are judged: `undefined` for any other header.
 */
function plainBoundaryOf(contentType: string | undefined): string | undefined {
  const header = parseHeaderParameters(contentType ?? '');
  if (header?.value !== 'multipart/form-data' || hasRepeatedParameter(header)) return undefined;
  const boundaries = header.parameters.filter((parameter) => baseNameOf(parameter) === 'boundary');
  const [boundary] = boundaries;
  if (boundaries.length !== 1 || boundary?.name !== 'boundary' || boundary.escaped)
    return undefined;
  return boundary.value;
}

/**
 * Why the one boundary a multipart Content-Type gives plainly is refused, when that is why (`BOUNDARY`): it was
 * told to give one boundary (found by the twenty-sixth session's probe: a boundary of 71 characters).
 */
function boundaryValueProblem(contentType: string | undefined): string | undefined {
  const boundary = plainBoundaryOf(contentType);
  if (boundary === undefined) return undefined;
  const length = [...boundary].length;
  const why =
    length === 0 || length > 70
      ? `this one has ${length}`
      : /^[0-9A-Za-z'()+_,\-./:=? ]*$/.test(boundary)
        ? 'this one ends with a space'
        : 'this one holds others';
  return (
    'The form data is malformed: its boundary must be 1 to 70 of the characters RFC 2046 allows (letters, ' +
    `digits, spaces but not at its end, and '()+_,-./:=?); ${why}.`
  );
}

/**
 * The characters (code points) of a text, as the JSON schemas count `maxLength`: a name of 201 letters outside
 * the Basic Multilingual Plane (𝐀, two UTF-16 units each) that the login and the quotes take is not "too long" here.
 */
function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}

/** Whether a parameter is given twice (`name` and `name*` count as the same one). */
function hasRepeatedParameter(header: HeaderWithParameters): boolean {
  const names = header.parameters.map(baseNameOf);
  return new Set(names).size !== names.length;
}

/**
 * The Content-Transfer-Encodings that leave a part's bytes as they are. Any other (`base64`,
 * `quoted-printable`) the parser ignores, so the encoded text was stored as it came (found by the seventeenth
 * session's API probe); RFC 7578 §4.7 deprecates the header and browsers never send it.
 */
const AS_THEY_ARE = new Set(['7bit', '8bit', 'binary']);
/**
 * The charsets a text part may declare: UTF-8, and US-ASCII, a part of it. The parser decodes a text part in
 * whatever charset it declares, Node's encoding names included, so bytes refused as not UTF-8 without a charset
 * were stored as "Café" under `charset=iso-8859-1`, and `charset=base64` or `utf-16le` rewrote the text (found by
 * the seventeenth session's API probe). Browsers declare none.
 */
const UTF8_CHARSETS = new Set(['utf-8', 'us-ascii']);
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Reads bytes as UTF-8 with U+FFFD for what is not, as the parser reads a text part without a charset. */
const LENIENT_UTF8 = new TextDecoder('utf-8');

/** Whether `bytes` are valid UTF-8 (no overlong forms, no surrogates). */
function isUtf8(bytes: Buffer): boolean {
  try {
    STRICT_UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A field as a message names it: `"SingleLine" (Project name)`, or the name alone when it is not the form's.
 * `latin1Name` is the name as the part's header has it, one byte a character (the parser reads it as UTF-8).
 */
function fieldTitle(latin1Name: string): string {
  const name = Buffer.from(latin1Name, 'latin1').toString('utf8');
  return isField(name) ? `"${name}" (${FIELDS[name].label})` : `"${shownText(name)}"`;
}

/**
 * Why a part's file name (`filename` or `filename*`, as its header has it) is refused, or `undefined`. The parser
 * writes U+FFFD for bytes that are not UTF-8 (a raw 0xE9, `filename*=UTF-8''a%FF.pdf`, overlong `C0 AF`), so the
 * file was stored and mailed as "r\uFFFDsum.pdf" where a text field with the same bytes is refused; and it decodes
 * `filename*=` in any charset it names, Node's encoding names included (found by the seventeenth session's API
 * probe); a `filename*=` whose `%` begins no escape is refused too. Browsers send the name as UTF-8 bytes in
 * `filename="…"`, which is taken (a `%` there is text).
 */
function fileNameProblem(parameter: HeaderParameter, field: string): string | undefined {
  let bytes: Buffer;
  if (parameter.name === 'filename*') {
    // RFC 8187: charset'language'value, the value %-encoded (the parser decodes every %XX, as here).
    const extended = /^([^']*)'[^']*'(.*)$/s.exec(parameter.value);
    if (extended?.[1]?.toLowerCase() !== 'utf-8') {
      return `The file name of the field ${field} must be UTF-8: send it as filename="…" or filename*=UTF-8''….`;
    }
    const value = extended[2] ?? '';
    // A `%` that begins no escape (`%ZZ.pdf`, `a%2.pdf`, a trailing `%`) makes no RFC 8187 value: the parser kept it
    // as text, and the file was stored as `%ZZ.pdf` (found by the thirty-first session's fault probe). RFC 6266
    // would have the `filename` beside it taken instead, but a part naming its file twice is refused already (a
    // reader in front may take the other one), so the name is refused in words, as a name not in UTF-8 is.
    if (/%(?![0-9A-Fa-f]{2})/.test(value)) {
      return `The file name of the field ${field} is not well formed: in filename*=, each % must begin an escape of two hexadecimal digits (%20).`;
    }
    bytes = Buffer.from(
      value.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      ),
      'latin1',
    );
  } else {
    bytes = Buffer.from(parameter.value, 'latin1');
  }
  return isUtf8(bytes) ? undefined : `The file name of the field ${field} is not valid UTF-8 text.`;
}

/** The refusal of a multipart body whose boundary `boundaryOf` cannot be sure of. */
const BOUNDARY_MESSAGE =
  'The form data is malformed: its Content-Type must give one boundary, as boundary=… (not boundary*=…).';

/**
 * Follows a multipart body as it arrives, as the parser splits it (a delimiter is CRLF, `--` and the boundary,
 * wherever it occurs; the body is read as if it began with a CRLF), and looks at each part's header block:
 * counts the parts, and names the first header block the parser would drop (wholly or in part) without a word.
 */
class PartHeaderCheck {
  /** Parts begun after the preamble (the closing delimiter not counted). */
  parts = 0;
  problem: string | undefined;
  readonly #delimiter: Buffer;
  /** The parts (counted from 1, as handed over) whose text the parser decodes as Latin-1: declared US-ASCII. */
  readonly #latin1Parts = new Set<number>();
  #carry: Buffer = Buffer.from('\r\n');
  #state: 'outside' | 'delimited' | 'header' | 'end' = 'outside';
  #header: Buffer[] = [];
  #headerBytes = 0;

  constructor(boundary: string) {
    this.#delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  push(chunk: Buffer): void {
    if (this.#state === 'end') return;
    let data: Buffer = this.#carry.length === 0 ? chunk : Buffer.concat([this.#carry, chunk]);
    this.#carry = Buffer.alloc(0);
    for (;;) {
      if (this.#state === 'outside') {
        const at = data.indexOf(this.#delimiter);
        if (at === -1) {
          this.#carry = data.subarray(Math.max(0, data.length - this.#delimiter.length + 1));
          return;
        }
        data = data.subarray(at + this.#delimiter.length);
        this.#state = 'delimited';
      } else if (this.#state === 'delimited') {
        if (data.length < 2) {
          this.#carry = data;
          return;
        }
        if (data[0] === 0x2d && data[1] === 0x2d) {
          this.#state = 'end'; // the closing delimiter: the parser reads nothing after it
          return;
        }
        this.parts += 1;
        this.#header = [];
        this.#headerBytes = 0;
        this.#state = 'header';
      } else if (this.#state === 'header') {
        const end = data.indexOf(CRLF_CRLF);
        const cut = data.indexOf(this.#delimiter);
        if (end !== -1 && (cut === -1 || end < cut)) {
          this.#keep(data.subarray(0, end));
          this.#checkHeader();
          data = data.subarray(end + CRLF_CRLF.length);
          this.#state = 'outside';
        } else if (cut !== -1) {
          this.problem ??=
            'A part of the form has headers that never end (no blank line after them).';
          data = data.subarray(cut + this.#delimiter.length);
          this.#state = 'delimited';
        } else {
          const keep = Math.min(data.length, this.#delimiter.length - 1);
          this.#keep(data.subarray(0, data.length - keep));
          this.#carry = data.subarray(data.length - keep);
          return;
        }
      } else {
        return;
      }
    }
  }

  /**
   * Whether the parser decoded the text of the `part`-th part (counted from 1) as Latin-1 (its declared charset is
   * US-ASCII): read as UTF-8, its bytes are what that text holds one to a character. The check reads each part's
   * headers before the parser hands the part over, and, when it names no problem, the parts are the parser's.
   */
  decodedAsLatin1(part: number): boolean {
    return this.#latin1Parts.has(part);
  }

  /** The problem to answer with once the parser has handed over `handed` parts, or `undefined`. */
  problemAfter(handed: number): string | undefined {
    if (this.problem !== undefined) return this.problem;
    // A part skipped for a reason not named above (a name with a line break in it, say).
    if (this.parts > handed) {
      return 'A part of the form could not be read: its Content-Disposition header must be form-data with a name.';
    }
    return undefined;
  }

  #keep(bytes: Buffer): void {
    if (this.#headerBytes <= MAX_PART_HEADER_BYTES) this.#header.push(bytes);
    this.#headerBytes += bytes.length;
  }

  #checkHeader(): void {
    if (this.problem !== undefined) return;
    if (this.#headerBytes >= MAX_PART_HEADER_BYTES) {
      this.problem = `A part of the form has headers over ${MAX_PART_HEADER_BYTES / 1024} KB.`;
      return;
    }
    const raw = Buffer.concat(this.#header).toString('latin1').split('\r\n');
    // What follows the boundary on its own line (nothing, from every browser). Spaces or tabs there are RFC 2046's
    // transport padding, which the parser does not read (it drops the part): told as such, not as a folded header
    // line (found by the twenty-ninth session's upload probe).
    if (/^[ \t]+$/.test(raw[0] ?? '')) {
      this.problem =
        'A boundary line of the form has spaces or tabs after the boundary: end each boundary line right after the boundary.';
      return;
    }
    const lines = raw.filter((line) => line !== '');
    let fields = 0;
    let disposition: string | undefined;
    let dispositions = 0;
    const contentTypes: string[] = [];
    const encodings: string[] = [];
    for (const line of lines) {
      if (line.startsWith(' ') || line.startsWith('\t')) {
        // Obsolete line folding: the parser joins the line onto the one before (a second `; name=` there was
        // stored as the field a filter in front did not see); browsers never fold.
        this.problem = 'A part of the form has a header folded over more than one line.';
        return;
      }
      fields += 1;
      const colon = line.indexOf(':');
      if (colon <= 0 || /[\r\n]/.test(line)) {
        this.problem = 'A part of the form has a header line that is not well formed.';
        return;
      }
      const headerName = line.slice(0, colon).toLowerCase();
      if (headerName === 'content-disposition') {
        disposition ??= line.slice(colon + 1);
        dispositions += 1;
      } else if (headerName === 'content-type') {
        contentTypes.push(line.slice(colon + 1));
      } else if (headerName === 'content-transfer-encoding') {
        encodings.push(line.slice(colon + 1).trim());
      }
    }
    if (fields > MAX_PART_HEADER_LINES) {
      this.problem = `A part of the form has more than ${MAX_PART_HEADER_LINES} header lines.`;
      return;
    }
    if (dispositions > 1) {
      // The parser reads the first one's name; a proxy or filter in front may read the last (a field it
      // checked as SingleLine4 was stored as Email): refused, as a second Host or Content-Type header is.
      this.problem = 'A part of the form has more than one Content-Disposition header.';
      return;
    }
    const header = disposition === undefined ? undefined : parseHeaderParameters(disposition);
    if (disposition === undefined || !/^\s*form-data\s*(;|$)/i.test(disposition)) {
      this.problem =
        'A part of the form has no Content-Disposition: form-data header naming its field.';
    } else if (header === undefined) {
      // Read leniently, `na me="Email"` is a second name (the parser drops the space); read strictly, it is
      // no parameter at all.
      this.problem =
        'A part of the form has a Content-Disposition header that is not well formed (a parameter is not name="value").';
    } else if (hasRepeatedParameter(header)) {
      // The parser takes the last name; a filter in front may read the first (`name="Email"; name="SingleLine4"`
      // was stored as the full name): refused, as two Content-Disposition headers are. So is a file name given
      // twice (`filename` and `filename*`).
      this.problem =
        'A part of the form names its field more than once in its Content-Disposition header.';
    } else {
      const name = header.parameters.find((parameter) => baseNameOf(parameter) === 'name');
      if (name === undefined) {
        this.problem =
          'A part of the form has a Content-Disposition header without a name for its field.';
      } else if (name.name !== 'name' || name.escaped) {
        // `name*=UTF-8''…` and backslash escapes are decoded differently by different readers.
        this.problem =
          'A part of the form must give its field\'s name plainly, as name="…" (no name*= and no backslashes).';
      } else {
        this.problem = this.#contentProblem(
          header,
          fieldTitle(name.value),
          contentTypes,
          encodings,
        );
      }
    }
  }

  /**
   * Why the parser would not hand over a well-formed part's bytes as they were sent, or `undefined`: a
   * Content-Transfer-Encoding it ignores, a file name that is not UTF-8, or a text part that is not plain UTF-8
   * text (another charset, or `application/json`, which the multipart plugin parses and replaces by its value).
   */
  #contentProblem(
    disposition: HeaderWithParameters,
    field: string,
    contentTypes: string[],
    encodings: string[],
  ): string | undefined {
    const encoding = encodings.find((value) => !AS_THEY_ARE.has(value.toLowerCase()));
    if (encoding !== undefined) {
      return `The field ${field} is sent with Content-Transfer-Encoding: ${shownText(encoding)}; send its bytes as they are, without one.`;
    }
    const fileName = disposition.parameters.find(
      (parameter) => baseNameOf(parameter) === 'filename',
    );
    // A file's bytes are stored as they come, whatever its Content-Type says.
    if (fileName !== undefined) return fileNameProblem(fileName, field);
    const declared = contentTypes
      .filter((value) => value.trim() !== '') // an empty one is no Content-Type to the parser
      .map((value) => parseHeaderParameters(value));
    if (declared.some((type) => type === undefined || hasRepeatedParameter(type))) {
      // Read leniently, `char set=latin1` is a charset (the parser drops the space).
      return 'A part of the form has a Content-Type header that is not well formed.';
    }
    // A part of this type is a file to the parser (the first Content-Type is the one it reads).
    if (declared[0]?.value === 'application/octet-stream') return undefined;
    // The file's field with no file name, sent as a file would be (`Content-Type: application/pdf`), was told to be
    // sent as UTF-8 text (found by the twenty-sixth session's probe), where it lacks only its filename.
    const text =
      field === fieldTitle(FILE_FIELD)
        ? FILE_AS_TEXT
        : `The field ${field} must be sent as UTF-8 text (no Content-Type, or text/plain with charset=utf-8).`;
    for (const [index, type] of declared.entries()) {
      if (type?.value !== 'text/plain') return text;
      for (const parameter of type.parameters) {
        if (baseNameOf(parameter) !== 'charset') continue;
        const charset = parameter.value.toLowerCase();
        if (parameter.name !== 'charset' || !UTF8_CHARSETS.has(charset)) return text;
        if (index === 0 && charset === 'us-ascii') this.#latin1Parts.add(this.parts);
      }
    }
    return undefined;
  }
}

interface Received {
  /** Parts the parser handed over (fields and files). */
  parts: number;
  fields: Partial<Record<FieldName, string>>;
  upload: UploadResult | undefined;
  problem: string | undefined;
  /** The file part being stored, and its storing (awaited when the request is abandoned). */
  file: Readable | undefined;
  storing: Promise<UploadResult> | undefined;
  fileTooLarge: boolean;
}

/**
 * Counts a request's body as it arrives and abandons it past MAX_BODY_BYTES, or DRAIN_MS after `fileTooLarge`:
 * the parser is cut off and the answer goes out with `Connection: close` (when it has not gone already: a
 * refusal sent before the end of the body), then the connection is closed (see `closeAfterAnswer`).
 */
function guardBody(request: FastifyRequest, reply: FastifyReply) {
  const raw = request.raw;
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let abandoned = false;
  let onAbandon: () => void = () => undefined;
  const over = new Promise<void>((resolve) => {
    onAbandon = resolve;
  });
  const abandon = () => {
    if (abandoned) return;
    abandoned = true;
    clearTimeout(timer);
    // Nothing more is read until the answer is out (then `closeAfterAnswer` drops what arrives).
    raw.unpipe();
    raw.pause();
    if (!reply.sent) reply.header('connection', 'close');
    // Once the answer is out, the rest is read and dropped for a while, so the client reads the answer.
    closeAfterAnswer(raw, reply.raw);
    onAbandon();
  };
  const count = (chunk: Buffer) => {
    bytes += chunk.length;
    if (!abandoned && bytes > MAX_BODY_BYTES) abandon();
  };
  // Only counts: it is added in the same tick as the parser's pipe (readParts starts at once), so both see
  // every chunk.
  raw.on('data', count);
  return {
    over,
    get abandoned() {
      return abandoned;
    },
    /**
     * Answering a refusal before the body has all arrived: as when abandoned, the answer says
     * `Connection: close` and the rest is read and dropped for a while, so that the client sees the answer
     * rather than a reset connection.
     */
    refuseEarly() {
      if (!raw.readableEnded) abandon();
    },
    fileTooLarge() {
      timer ??= setTimeout(abandon, DRAIN_MS);
    },
    /** Answering now: no deadline any more (the byte count stays, for anything still sent after it). */
    finished() {
      clearTimeout(timer);
    },
    /** The body is in but the parser is stuck: any part it still hands over is dropped, as when abandoned. */
    giveUp() {
      clearTimeout(timer);
      abandoned = true;
    },
  };
}
type BodyGuard = ReturnType<typeof guardBody>;

/** Reads every part (so the request is always fully consumed, within bounds) and streams the file to disk. */
async function receive(
  request: FastifyRequest,
  reply: FastifyReply,
  uploadsDir: string,
): Promise<Received> {
  const received: Received = {
    parts: 0,
    fields: {},
    upload: undefined,
    problem: undefined,
    file: undefined,
    storing: undefined,
    fileTooLarge: false,
  };
  // Refused on its headers alone, before anything is read: a client waiting for `100 Continue` gets the refusal
  // without one (it was told to send the body first: found by the twenty-third session's API probe). As when a
  // refusal is answered early, the connection closes after the answer, the rest of the body read and dropped.
  const boundary = boundaryOf(request.headers['content-type']);
  if (boundary === undefined) {
    if (!request.raw.readableEnded) {
      reply.header('connection', 'close');
      closeAfterAnswer(request.raw, reply.raw);
    }
    throw new HttpError(
      400,
      boundaryValueProblem(request.headers['content-type']) ?? BOUNDARY_MESSAGE,
    );
  }
  const guard = guardBody(request, reply);
  // Sees every chunk the parser sees, as the guard does (added in the same tick as the parser's pipe).
  const headers = new PartHeaderCheck(boundary);
  request.raw.on('data', (chunk: Buffer) => headers.push(chunk));
  const reading = readParts(request, uploadsDir, received, guard, headers);
  // Whether the whole body is in: 'end' is not emitted while the stuck parser holds the last read unconsumed, so
  // the bytes are counted as they arrive (a chunked body: Node marks the request complete).
  let stuckTimer: NodeJS.Timeout | undefined;
  let arrived = 0;
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  const stuck = new Promise<'stuck'>((resolve) => {
    const wait = () => {
      stuckTimer ??= setTimeout(() => {
        if (headers.problem !== undefined) resolve('stuck');
      }, STUCK_PARSER_MS);
    };
    if (request.raw.readableEnded) wait();
    request.raw.once('end', wait);
    request.raw.on('data', (chunk: Buffer) => {
      arrived += chunk.length;
      setImmediate(() => {
        if (arrived >= declared || request.raw.complete) wait();
      });
    });
  });
  let complete: boolean;
  let stuckProblem: string | undefined;
  try {
    let outcome = await Promise.race([
      reading.then(() => true),
      guard.over.then(() => false),
      stuck,
    ]).finally(() => clearTimeout(stuckTimer));
    if (outcome === 'stuck') {
      stuckProblem = headers.problem;
      outcome = false;
    }
    complete = outcome;
  } catch (error) {
    if (!guard.abandoned) {
      guard.finished();
      guard.refuseEarly();
      // A malformed body (no boundary, truncated, bad part headers) or a library limit: drop any file
      // already kept, answer 400 in our words.
      if (received.upload?.status === 'stored')
        await removeUpload(uploadsDir, received.upload.storedName);
      // Writing the file failed, not reading the form: a full disk is a 507 to try again later, any other
      // system error a fault (500). Both were answered "The form data is malformed".
      if (isOutOfSpace(error)) throw new HttpError(507, NO_ROOM_MESSAGE);
      if (typeof (error as { syscall?: unknown }).syscall === 'string') throw error;
      // A file over the limit in a body that then breaks off: the size is what the user can act on (a
      // 22 MB file without the form's end was told "malformed", as if sending it again could work).
      if (
        received.fileTooLarge ||
        (received.file as { truncated?: boolean } | undefined)?.truncated
      )
        throw new HttpError(413, TOO_LARGE_MESSAGE);
      const code = (error as { code?: unknown }).code;
      // A second file part after one already refused by name (`Unknown field "x".`): that name is the problem.
      if (code === 'FST_FILES_LIMIT' && received.problem !== undefined) {
        throw new HttpError(400, received.problem);
      }
      const refusal = typeof code === 'string' ? LIBRARY_REFUSALS[code] : undefined;
      // Not a limit: a part whose headers were seen to be wrong (a Content-Disposition with no name, which the
      // parser throws on) says so in its words.
      throw new HttpError(
        400,
        refusal ?? headers.problem ?? 'The form data is malformed. Please send the form again.',
      );
    }
    complete = false;
  }
  if (complete) {
    guard.finished();
    // A part the parser dropped for its headers: said first, as it explains anything missing.
    const unread = headers.problemAfter(received.parts);
    if (unread !== undefined) received.problem = unread;
    return received;
  }
  if (stuckProblem !== undefined) {
    // The parser is stuck on a dropped part: any part it still hands over is dropped, a file being stored is stopped
    // and deleted, as when abandoned, and the part's problem is answered.
    guard.refuseEarly();
    guard.giveUp();
    received.file?.destroy(new Error('The parser did not finish the form.'));
    const result = await received.storing?.catch(() => undefined);
    if (result?.status === 'stored') await removeUpload(uploadsDir, result.storedName);
    if (received.upload?.status === 'stored')
      await removeUpload(uploadsDir, received.upload.storedName);
    if (received.fileTooLarge || received.upload?.status === 'too-large')
      throw new HttpError(413, TOO_LARGE_MESSAGE);
    throw new HttpError(400, stuckProblem);
  }
  // Abandoned: stop storing the file (its partial copy is deleted) and delete it if it was already stored,
  // before the answer, so that nothing of the request is left. The file is what made the body too large when
  // it is over the limit itself: counted so on disk, or, as that count may lag behind the bytes received, by
  // the parser (which marks a file past its size limit truncated). Anything else (a file within the limit
  // still being written, then data after the form's end) is the form being too large.
  const storingUpload =
    received.file !== undefined && received.storing !== undefined && received.upload === undefined;
  const fileOver =
    received.fileTooLarge ||
    (storingUpload && (received.file as Readable & { truncated?: boolean }).truncated === true);
  received.file?.destroy(new Error('The request was abandoned.'));
  const result = await received.storing?.catch(() => undefined);
  if (result?.status === 'stored') await removeUpload(uploadsDir, result.storedName);
  throw new HttpError(413, fileOver ? TOO_LARGE_MESSAGE : FORM_TOO_LARGE_MESSAGE);
}

async function readParts(
  request: FastifyRequest,
  uploadsDir: string,
  received: Received,
  guard: BodyGuard,
  headers: PartHeaderCheck,
): Promise<void> {
  for await (const part of request.parts()) {
    received.parts += 1;
    if (guard.abandoned) {
      if (part.type === 'file') part.file.destroy();
      return;
    }
    if (part.type === 'file') {
      if (part.fieldname !== FILE_FIELD || received.upload !== undefined) {
        received.problem ??= isField(part.fieldname)
          ? `The field "${part.fieldname}" (${FIELDS[part.fieldname].label}) must be sent as text, not as a file.`
          : `Unknown field "${shownText(part.fieldname)}".`;
        received.file = part.file;
        // `finished` also settles for a stream that has already ended (waiting for 'end' would hang).
        await finished(part.file.resume());
        received.file = undefined;
        continue;
      }
      received.file = part.file;
      received.storing = storeUpload(part.file, part.filename, uploadsDir, () => {
        received.fileTooLarge = true;
        guard.fileTooLarge();
      });
      received.upload = await received.storing;
      received.file = undefined;
      continue;
    }
    let value = typeof part.value === 'string' ? part.value : String(part.value);
    // Declared US-ASCII, the part was decoded as Latin-1 (`Caf\xE9` stored as "Café"): read as UTF-8 instead,
    // as every text part is (its bytes are what the string holds, one to a character).
    if (headers.decodedAsLatin1(received.parts)) {
      value = LENIENT_UTF8.decode(Buffer.from(value, 'latin1'));
    }
    // An e-mail address is taken without the invisible format characters it may be copied with, as the login's and
    // the calculators' are (`storedEmailAddress`; found by the twenty-ninth session's API probe: `ada\u200B@…`
    // was refused here as no e-mail address).
    if (part.fieldname === 'Email') value = storedEmailAddress(value);
    if (part.fieldname === FILE_FIELD && value === '') continue; // "no file chosen"
    if (part.fieldname === FILE_FIELD) {
      // Content under the file's name with no `filename` is a text field to the parser (cut at its size
      // limit): refused in words that say so, not as an unknown field.
      received.problem ??= FILE_AS_TEXT;
    } else if (part.fieldname.includes('\u0000')) {
      // Its name, not its value (found by the twenty-eighth session's probe: `name="SingleLine\0"` was told that the
      // field "SingleLine" held a NUL character, its name quoted without it).
      // A name of nothing but NULs was quoted as "" (thirtieth session's PostgreSQL probe).
      received.problem ??=
        shownText(part.fieldname) === ''
          ? 'The name of a field holds nothing but NUL characters.'
          : `The name of the field "${shownText(part.fieldname)}" contains a NUL character.`;
    } else if (value.includes('\u0000')) {
      received.problem ??= `The field "${shownText(part.fieldname)}" contains a NUL character.`;
    } else if (!isField(part.fieldname)) {
      received.problem ??= `Unknown field "${shownText(part.fieldname)}".`;
    } else if (received.fields[part.fieldname] !== undefined) {
      received.problem ??= `The field "${part.fieldname}" was sent twice.`;
    } else if (part.valueTruncated || characterCount(value) > FIELDS[part.fieldname].max) {
      // The limit said, as the JSON calls say it (until the twenty-eighth session: only "is too long").
      received.problem ??= `The field "${part.fieldname}" (${FIELDS[part.fieldname].label}) is too long: it must be at most ${FIELDS[part.fieldname].max.toLocaleString('en-GB')} characters long.`;
    } else if (!('multiline' in FIELDS[part.fieldname]) && ANY_LINE_BREAK.test(value.trim())) {
      received.problem ??= `The field "${part.fieldname}" (${FIELDS[part.fieldname].label}) must be one line.`;
    } else if (value.includes('\uFFFD')) {
      // The parser writes U+FFFD for bytes that are not UTF-8 (a Latin-1 form, a damaged body): stored, the
      // field would have lost what was typed without a word. The JSON calls refuse such bytes the same way.
      received.problem ??= `The field "${part.fieldname}" (${FIELDS[part.fieldname].label}) is not valid UTF-8 text.`;
    } else if (HIDDEN_CONTROL.test(value)) {
      received.problem ??= `The field "${part.fieldname}" (${FIELDS[part.fieldname].label}) must not hold control characters or invisible text-direction marks.`;
    } else {
      received.fields[part.fieldname] = value.trim();
    }
  }
}

/** POST /api/{client}/due-diligence: store the request and file durably, forward when configured. */
export default function dueDiligenceRoutes(app: FastifyInstance): void {
  const uploadsDir = path.join(app.config.dataDir, 'uploads');
  const limit = new UserAndAddressLimit(
    app.config.dueDiligencePerHour,
    app.config.dueDiligencePerAddressPerHour,
    HOUR,
  );

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
          'answers 303 to /{client}/due-diligence?success=1. At most DUE_DILIGENCE_LIMIT_PER_HOUR (20) stored ' +
          'a user and hour, and DUE_DILIGENCE_LIMIT_PER_ADDRESS (60) an address and hour, then 429 with ' +
          'Retry-After; 507 while the data folder is nearly full. With an `Idempotency-Key` header (1–255 ' +
          'visible ASCII characters), the same request sent again by the same user gets the same 303 with ' +
          '`Idempotent-Replayed: true` (nothing stored, mailed or forwarded again; its file is not kept; it counts ' +
          'against the limits, as an upload), and a ' +
          'different request under that key gets 409.',
        tags: ['submissions'],
        security: [{ session: [] }],
        params: clientParams,
        consumes: ['multipart/form-data'],
        response: {
          303: {
            description: 'Stored: redirect to /{client}/due-diligence?success=1',
            type: 'null',
          },
          ...errors(400, 401, 403, 404, 409, 413, 415, 429, 507),
        },
      },
      preValidation: app.requireUser,
    },
    async (request, reply) => {
      const client = clientOf(request);
      const user = userOf(request);
      const key = idempotencyKeyOf(request.headers['idempotency-key']);
      if (!request.isMultipart()) {
        throw new HttpError(415, MULTIPART_ONLY_MESSAGE);
      }
      // A body it says is over the limit is refused at once, before a byte of it is read: a client waiting for
      // `100 Continue` (curl, for a large file) has sent nothing; one already sending reads the answer while
      // what it still sends is read and dropped for a while (as for the refusals below). A body over the limit
      // can only hold a file over 20 MB, unless it is padded on purpose. Found by the nineteenth session's API
      // probe: without `Expect`, 24 MB of a body declared at 30 MB were read before the 413, where the JSON
      // calls refuse a declared length over theirs at once. A body without a length (chunked) is counted as it
      // arrives and refused past the limit (`receive`).
      if (Number(request.headers['content-length']) > MAX_BODY_BYTES) {
        throw new HttpError(413, TOO_LARGE_MESSAGE);
      }
      // Refused before a byte of the body is read: past the user's limit, or with no room for the file (the
      // error handler then reads and drops the rest for a while, so the client reads the answer).
      const hitMs = app.clock().getTime();
      // Per user, and per address too: on an open client every login is a new user.
      const address = addressKey(request.ip);
      const waitMs = limit.hit(user.id, address, hitMs);
      if (waitMs > 0) {
        void reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
        throw new HttpError(429, TOO_MANY_REQUESTS);
      }
      let outcome: 'stored' | 'replayed';
      try {
        // Room for the body and the copy the queued e-mail may hold, with the minimum left over, held while the
        // request is stored so that uploads arriving together cannot all take the same room.
        const room = await app.diskSpace.reserve(2 * MAX_BODY_BYTES);
        if (room === undefined) throw new HttpError(507, NO_ROOM_MESSAGE);
        try {
          // Counted until it ends, so that a shutdown that cuts the upload off waits for its partial file to go.
          outcome = await app.background.track(store(request, reply, key));
        } finally {
          room();
        }
      } catch (error) {
        // Only stored requests and resends of them count against the limits (a resend is an upload all the
        // same: not counted, one key would carry any number of them).
        limit.release(user.id, address, hitMs);
        throw error;
      }
      if (outcome === 'replayed') void reply.header('idempotent-replayed', 'true');
      return reply.redirect(`/${client.prefix}/due-diligence?success=1`, 303);
    },
  );

  /**
   * Reads, checks and stores one request (the file durably first) and queues its mail and forward; or, for a
   * resend under a key already stored, finds the stored one (and keeps nothing of the resend).
   */
  async function store(
    request: FastifyRequest<{ Params: { client: string } }>,
    reply: FastifyReply,
    key: string | undefined,
  ): Promise<'stored' | 'replayed'> {
    const { fields, upload, problem } = await receive(request, reply, uploadsDir);
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
    if (upload?.status === 'text-not-utf8') throw new HttpError(415, TEXT_NOT_UTF8_MESSAGE);
    if (upload?.status === 'empty-file') throw new HttpError(400, EMPTY_FILE_MESSAGE);
    for (const [name, field] of Object.entries(FIELDS)) {
      if (field.required && !VISIBLE.test(fields[name as FieldName] ?? '')) {
        await discard();
        throw new HttpError(400, `Missing required field "${name}" (${field.label}).`);
      }
    }
    const badFormat = formatProblem(fields);
    if (badFormat !== undefined) {
      await discard();
      throw new HttpError(400, badFormat);
    }

    // The session was judged before the body was read; the upload may have taken minutes. A session ended
    // meanwhile (a logout on any instance, the staff tool) stores nothing, as for a JSON body judged once in.
    try {
      await app.requireUserStill(request);
    } catch (error) {
      await discard();
      throw error;
    }
    const client = clientOf(request);
    const user = userOf(request);
    const now = app.clock();
    const value = (name: FieldName) => fields[name] ?? '';
    const email = value('Email') || user.email;
    // A name of characters that show nothing (a zero-width space, a lone combining mark) is blank, as in a required
    // field: the account's name stands in, where the invisible one was stored, mailed and forwarded (found by the
    // twenty-second session's API probe).
    const fullName = VISIBLE.test(value('SingleLine4'))
      ? value('SingleLine4')
      : `${user.first_name} ${user.last_name}`;
    const attachment =
      stored === undefined
        ? undefined
        : {
            path: stored.storedName,
            filename: stored.displayName,
            contentType: stored.type.mime,
          };
    const content = {
      project_name: value('SingleLine'),
      project_address: value('SingleLine1'),
      city_postcode: value('SingleLine2'),
      project_description: value('SingleLine3'),
      build_cost: value('Currency1'),
      gdv: value('Currency2'),
      loan_amount: value('Currency'),
      email,
      full_name: fullName,
      attachment_name: stored?.displayName ?? null,
      attachment_sha256: stored?.sha256 ?? null,
    };
    /** Whether a request sent again under a used key is the stored one: the same fields, the same file (or none). */
    const sameRequest = (earlier: DueDiligenceRow) =>
      (Object.keys(content) as (keyof typeof content)[]).every(
        (column) => earlier[column] === content[column],
      );
    let earlier: DueDiligenceRow | undefined;
    try {
      earlier = await app.db
        .write<DueDiligenceRow | undefined>(async (trx) => {
          // Looked up in the transaction that would store it: on SQLite a resend in the same batch finds the
          // first one's row; on PostgreSQL a resend racing the first meets the unique index (below).
          if (key !== undefined) {
            const found = await findDueDiligenceByIdempotencyKey(trx, client.id, user.id, key);
            if (found !== undefined) return found;
          }
          await storeRequest(trx);
          return undefined;
        })
        .catch(async (error: unknown) => {
          if (key === undefined || !isUniqueViolation(error)) throw error;
          const found = await findDueDiligenceByIdempotencyKey(
            app.db.kysely,
            client.id,
            user.id,
            key,
          );
          if (found === undefined) throw error;
          return found;
        });
    } catch (error) {
      await discard();
      // The database's disk is full (the free-space floor is off, or other writes took the room): a 507.
      if (isOutOfSpace(error)) throw new HttpError(507, NO_ROOM_MESSAGE);
      throw error;
    }
    if (earlier !== undefined) {
      // The stored request keeps its own copy of the file: the resend's is not kept, whatever the answer.
      await discard();
      if (!sameRequest(earlier)) throw new HttpError(409, IDEMPOTENCY_KEY_REUSED);
      return 'replayed';
    }
    app.background.run(async () => {
      await app.outbox.runOnce();
    });
    return 'stored';

    async function storeRequest(trx: typeof app.db.kysely): Promise<void> {
      const reference = await nextReference(trx, client.id, 'DD', now);
      await insertDueDiligence(trx, {
        reference,
        client_id: client.id,
        user_id: user.id,
        ...content,
        attachment_path: stored?.storedName ?? null,
        attachment_size: stored?.size ?? null,
        attachment_mime: stored?.type.mime ?? null,
        created_at: now.toISOString(),
        idempotency_key: key ?? null,
      });
      // A field of characters that show nothing is blank here too, as in the record (found by the twenty-second
      // session's probe: the stored full name fell back to the account's, the mail still showed the invisible one).
      const lines = Object.entries(FIELDS).map(([name, field]) => {
        const text = value(name as FieldName);
        return `${field.label}: ${VISIBLE.test(text) ? mailText(text) : '—'}`;
      });
      await enqueue(
        trx,
        {
          kind: 'mail',
          payload: {
            to: app.config.teamEmail,
            // Per client, like every reference: the client's unique prefix makes it unambiguous.
            subject: `Due diligence request ${reference} from ${client.name} (${client.prefix})`,
            text:
              `A due diligence request was submitted on the ${client.name} portal (${client.prefix}).\n\n` +
              // Who sent it is the session's account: the form's Email and Full name are contact details
              // the browser sends, and a request naming them as its sender passed for anyone's.
              `Reference: ${reference}\nClient: ${client.name} (${client.prefix})\n` +
              `Submitted by: ${user.first_name} ${user.last_name} ` +
              `<${user.email}> (the logged-in account)\n\n${lines.join('\n')}\n\n` +
              (stored === undefined
                ? 'No file was attached.\n'
                : `Attached: ${stored.displayName} (${stored.size} bytes, ${stored.type.mime}, ` +
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
    }
  }
}
