/**
 * Hostile callers beyond hostile.test.ts: inputs whose reading throws (revoked Proxies, throwing
 * getters and traps), values that throw when turned into text, BigInt, Symbol, sparse arrays,
 * null-prototype, frozen and sealed objects; caller text that is huge or invisible; the ESM and
 * CommonJS builds mixed in one program; and the CLI given numbers too large for a double. Each must
 * end in an exact result or a PricingInputError with a short, printable message, running no
 * caller code that threw a second time and never turning a caller's object into text.
 */
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatPounds,
  PricingInputError,
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  recommendInsuranceFramework,
} from '../index';
import { BTR, BUILDING_WARRANTY, CAR, cli, FRAMEWORK, LOSS_OF_RENT, packageDir } from './support';

/** Anything a reader cannot see or that reorders text: none may reach a message. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;

/** The PricingInputError `run` throws (failing the test on anything else). */
function inputError(run: () => unknown): PricingInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof PricingInputError) return error;
    throw new Error('expected a PricingInputError', { cause: error });
  }
  throw new Error('expected a PricingInputError');
}

/** A Proxy already revoked: every operation on it throws a TypeError. */
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** Counts every call of the caller code planted in an input. */
class Hooks {
  readonly calls = new Map<string, number>();

  /** A function that counts its call under `name`, then throws. */
  thrower(name: string): () => never {
    return () => {
      this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
      throw new Error(`hostile ${name}`);
    };
  }
}

const TRAPS = [
  'get',
  'has',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'getPrototypeOf',
  'defineProperty',
  'set',
  'deleteProperty',
  'isExtensible',
  'preventExtensions',
  'setPrototypeOf',
] as const;

/** How one exotic value is made (made afresh for each run, so its hooks count that run only). */
type Exotic =
  | { readonly kind: 'revoked' }
  | { readonly kind: 'throwingTraps'; readonly traps: readonly (typeof TRAPS)[number][] }
  | { readonly kind: 'throwingGetter' }
  | { readonly kind: 'throwsAsText' }
  | { readonly kind: 'value'; readonly value: unknown };

/** The value of an exotic (a throwing getter is made where the field is defined instead). */
function make(exotic: Exotic, hooks: Hooks, id: string): unknown {
  switch (exotic.kind) {
    case 'revoked':
      return revoked();
    case 'throwingTraps':
      return new Proxy(
        {},
        Object.fromEntries(exotic.traps.map((trap) => [trap, hooks.thrower(`${id}:${trap}`)])),
      );
    case 'throwingGetter':
      return Object.defineProperty({}, 'units', {
        enumerable: true,
        get: hooks.thrower(`${id}:getter`),
      });
    case 'throwsAsText':
      // Turning this into text would run caller code: the library must never do it.
      return {
        [Symbol.toPrimitive]: hooks.thrower(`${id}:asText`),
        toString: hooks.thrower(`${id}:asText`),
        valueOf: hooks.thrower(`${id}:asText`),
        toJSON: hooks.thrower(`${id}:asText`),
      };
    case 'value':
      return exotic.value;
  }
}

/** Text as hostile as it gets: huge, control and invisible characters, lone surrogates. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.constantFrom(
    'x'.repeat(100_000),
    '\u202Egnp.exe',
    'a\u0000b\u001B[31m\u200B\u2028\uFEFF\uD800',
    'units\u200B',
    '__proto__',
    'constructor',
  ),
);

const exotic: fc.Arbitrary<Exotic> = fc.oneof(
  fc.constant({ kind: 'revoked' } as const),
  fc
    .subarray([...TRAPS], { minLength: 1 })
    .map((traps) => ({ kind: 'throwingTraps', traps }) as const),
  fc.constant({ kind: 'throwingGetter' } as const),
  fc.constant({ kind: 'throwsAsText' } as const),
  fc
    .oneof(
      fc.bigInt(),
      fc.constantFrom(10n ** 100_000n, -(10n ** 40n)),
      hostileText.map((text) => Symbol(text)),
      hostileText,
      fc.sparseArray(fc.integer(), { maxLength: 1_000 }),
      fc.constantFrom(Object.create(null) as object, Object.freeze([]), new Array(1e6)),
      fc.anything({ withBigInt: true, withNullPrototype: true, withSparseArray: true }),
    )
    .map((value) => ({ kind: 'value', value }) as const),
);

/** How the input object itself is built around its fields. */
type Container = 'plain' | 'nullPrototype' | 'frozen' | 'sealed' | 'proxy';

interface Recipe {
  /** Replaces the whole input when given. */
  readonly whole: Exotic | null;
  readonly container: Container;
  /** Fields (a path, `lossOfRent.x` for the BTR group) set to an exotic value or getter. */
  readonly fields: readonly (readonly [string, Exotic])[];
  /** Extra fields with hostile names. */
  readonly extra: readonly (readonly [string, Exotic])[];
}

function recipe(paths: readonly string[]): fc.Arbitrary<Recipe> {
  return fc.record({
    whole: fc.option(exotic, { freq: 4 }),
    container: fc.constantFrom<Container>('plain', 'nullPrototype', 'frozen', 'sealed', 'proxy'),
    fields: fc.array(fc.tuple(fc.constantFrom(...paths), exotic), { maxLength: 3 }),
    extra: fc.array(fc.tuple(hostileText, exotic), { maxLength: 2 }),
  });
}

/** Build `base` (a plain input) as the recipe says. */
function build(base: Record<string, unknown>, how: Recipe, hooks: Hooks): unknown {
  if (how.whole !== null) return make(how.whole, hooks, 'input');
  const wrap = (fields: Record<string, unknown>, getters: Map<string, string>): object => {
    const object: Record<string, unknown> =
      how.container === 'nullPrototype' ? (Object.create(null) as Record<string, unknown>) : {};
    for (const [key, value] of Object.entries(fields)) {
      if (getters.has(key)) {
        Object.defineProperty(object, key, {
          enumerable: true,
          get: hooks.thrower(getters.get(key) as string),
        });
      } else {
        Object.defineProperty(object, key, { enumerable: true, writable: true, value });
      }
    }
    if (how.container === 'frozen') return Object.freeze(object);
    if (how.container === 'sealed') return Object.seal(object);
    // A Proxy that answers like its target: valid input through it must still price.
    if (how.container === 'proxy') return new Proxy(object, {});
    return object;
  };
  const top: Record<string, unknown> = { ...base };
  const nested: Record<string, unknown> | undefined =
    typeof base.lossOfRent === 'object' ? { ...(base.lossOfRent as object) } : undefined;
  const topGetters = new Map<string, string>();
  const nestedGetters = new Map<string, string>();
  for (const [index, [path, how_]] of [...how.fields, ...how.extra].entries()) {
    const id = `field${index}`;
    const [group, field] = path.startsWith('lossOfRent.') ? ['lossOfRent', path.slice(11)] : [path];
    const target = field === undefined ? top : (nested ?? {});
    const key = field ?? group;
    // defineProperty, so a name such as '__proto__' is an own field, as JSON.parse makes it.
    const put = (value: unknown): void => {
      Object.defineProperty(target, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    };
    if (how_.kind === 'throwingGetter') {
      (field === undefined ? topGetters : nestedGetters).set(key, `${id}:getter`);
      put(undefined);
    } else {
      (field === undefined ? topGetters : nestedGetters).delete(key);
      put(make(how_, hooks, id));
    }
  }
  if (nested !== undefined && top.lossOfRent === base.lossOfRent) {
    top.lossOfRent = wrap(nested, nestedGetters);
  }
  return wrap(top, topGetters);
}

const FUNCTIONS = [
  ['quoteBuildingWarranty', quoteBuildingWarranty, BUILDING_WARRANTY],
  ['quoteBtrWarranty', quoteBtrWarranty, BTR],
  ['quoteContractorsAllRisks', quoteContractorsAllRisks, CAR],
  ['recommendInsuranceFramework', recommendInsuranceFramework, FRAMEWORK],
] as const;

/** The checks every call with hostile input must pass, whatever it returned or threw. */
function checkOutcome(run: () => unknown, hooks: Hooks): unknown {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    // Exactly the library's class (not a look-alike), with short, printable issues.
    expect(Object.getPrototypeOf(error)).toBe(PricingInputError.prototype);
    const { issues, message } = error as PricingInputError;
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.length).toBeLessThanOrEqual(9 + 11); // every known field + 10 unknown + a count
    for (const issue of issues) {
      expect(issue.field.length).toBeLessThanOrEqual(75);
      expect(issue.message.length).toBeLessThanOrEqual(600);
      expect(issue.field).not.toMatch(HIDDEN);
      expect(issue.message).not.toMatch(HIDDEN);
    }
    expect(message).not.toMatch(HIDDEN);
    result = undefined;
  }
  for (const [name, count] of hooks.calls) {
    if (name.endsWith(':asText')) expect(count, name).toBe(0);
    else expect(count, name).toBeLessThanOrEqual(1);
  }
  return result;
}

describe('exotic inputs', () => {
  it('a revoked Proxy, as the input or as a field, is a PricingInputError, not a TypeError', () => {
    for (const [, quote, base] of FUNCTIONS) {
      const run = quote as (input: unknown) => unknown;
      expect(inputError(() => run(revoked())).issues).toEqual([
        { field: 'input', message: 'Could not be read: a getter or Proxy on it threw an error.' },
      ]);
      const field = Object.keys(base)[0] as string;
      const error = inputError(() => run({ ...base, [field]: revoked() }));
      expect(error.issues.map((issue) => issue.field)).toEqual([field]);
      expect(error.message).toMatch(/\(got an object\)\.$/);
    }
    // The fast path cannot tell which of its reads threw (and must not read again): 'input'.
    expect(
      inputError(() => quoteBtrWarranty({ ...BTR, lossOfRent: revoked() } as never)).issues,
    ).toEqual([
      { field: 'input', message: 'Could not be read: a getter or Proxy on it threw an error.' },
    ]);
    // Without a fast path the collecting validation names the field it could not read.
    const framework = Object.defineProperty({ ...FRAMEWORK }, 'gdv', {
      enumerable: true,
      get: () => revoked().valueOf(),
    });
    expect(inputError(() => recommendInsuranceFramework(framework as never)).issues).toEqual([
      { field: 'gdv', message: 'Could not be read: a getter or Proxy on it threw an error.' },
    ]);
    expect(inputError(() => formatPounds(revoked() as never)).message).toBe(
      'Invalid pricing input: amount: Must be a whole number of pounds (got an object).',
    );
  });

  it('a getter that throws is reported once and never read again', () => {
    for (const [, quote, base] of FUNCTIONS) {
      const hooks = new Hooks();
      const input = Object.defineProperty({ ...base }, 'gdv' in base ? 'gdv' : 'propertyType', {
        enumerable: true,
        get: hooks.thrower('getter'),
      });
      const error = inputError(() => (quote as (input: unknown) => unknown)(input));
      expect(error.message).toContain('Could not be read: a getter or Proxy on it threw an error.');
      expect(hooks.calls.get('getter')).toBe(1);
    }
  });

  it('stops reading an input at the first read that throws', () => {
    for (const [, quote, base] of FUNCTIONS) {
      const hooks = new Hooks();
      const thrower = hooks.thrower('get');
      // Throws for every field, not for the symbols the library may look up first.
      const input = new Proxy(base, {
        get: (target, key, receiver) =>
          typeof key === 'string' ? thrower() : (Reflect.get(target, key, receiver) as unknown),
      });
      const error = inputError(() => (quote as (input: unknown) => unknown)(input));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]?.message).toBe(
        'Could not be read: a getter or Proxy on it threw an error.',
      );
      expect(hooks.calls.get('get')).toBe(1);
    }
  });

  it.each(FUNCTIONS)(
    '%s prices or throws a PricingInputError for any exotic input (property)',
    (_, quote, base) => {
      const paths = [
        ...Object.keys(base),
        ...('lossOfRent' in base ? Object.keys(LOSS_OF_RENT).map((f) => `lossOfRent.${f}`) : []),
      ];
      const plain = (quote as (input: unknown) => unknown)(base);
      fc.assert(
        fc.property(recipe(paths), (how) => {
          const hooks = new Hooks();
          const input = build(base as Record<string, unknown>, how, hooks);
          const result = checkOutcome(() => (quote as (input: unknown) => unknown)(input), hooks);
          // Only the container changed (null prototype, frozen, sealed, a plain Proxy): same price.
          if (how.whole === null && how.fields.length === 0 && how.extra.length === 0) {
            expect(result).toEqual(plain);
          }
        }),
        { numRuns: 300 },
      );
    },
  );

  it('formatPounds throws a PricingInputError for any exotic amount (property)', () => {
    fc.assert(
      fc.property(exotic, (how) => {
        const hooks = new Hooks();
        const amount = make(how, hooks, 'amount');
        if (typeof amount === 'number' && Number.isSafeInteger(amount)) return;
        checkOutcome(() => formatPounds(amount as number), hooks);
      }),
    );
  });
});

describe('objects with a key per byte or character', () => {
  it('refuses a large Buffer, typed array or String object at once, without listing its keys', () => {
    for (const [input, got] of [
      [Buffer.alloc(10_000_000), 'binary data'],
      [new Float64Array(10_000_000), 'binary data'],
      [new String('x'.repeat(10_000_000)), 'a String object'],
    ] as const) {
      const started = performance.now();
      for (const [, quote] of FUNCTIONS) {
        expect(inputError(() => (quote as (input: unknown) => unknown)(input)).issues).toEqual([
          { field: 'input', message: `Must be an object of quote inputs (got ${got}).` },
        ]);
      }
      expect(
        inputError(() => quoteBtrWarranty({ ...BTR, lossOfRent: input } as never)).issues,
      ).toEqual([
        {
          field: 'lossOfRent',
          message: `Must be an object { anticipatedRentalIncome, termMonths, programmeMonths }, or left out (got ${got}).`,
        },
      ]);
      // Listing the keys took seconds (10 million strings); refusing the object takes none.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('still reads an object that only claims to be a String through Symbol.toStringTag', () => {
    const input = { ...CAR, [Symbol.toStringTag]: 'String' };
    expect(quoteContractorsAllRisks(input as never).high).toBe(4_500);
    const framework = { ...FRAMEWORK, [Symbol.toStringTag]: 'String' };
    expect(recommendInsuranceFramework(framework as never).rows).toHaveLength(15);
  });
});

describe('caller text in messages', () => {
  it('quotes an unknown field name of 100 KB as a short prefix', () => {
    const name = 'k'.repeat(100_000);
    const error = inputError(() =>
      quoteBuildingWarranty({ ...BUILDING_WARRANTY, [name]: 1 } as never),
    );
    expect(error.issues.map((issue) => issue.field)).toEqual([`${'k'.repeat(60)}…`]);
    expect(error.message.length).toBeLessThan(200);
    const nested = inputError(() =>
      quoteBtrWarranty({ ...BTR, lossOfRent: { ...LOSS_OF_RENT, [name]: 1 } } as never),
    );
    expect(nested.issues.map((issue) => issue.field)).toEqual([`lossOfRent.${'k'.repeat(60)}…`]);
  });

  it('shows control and invisible characters in names and values as \\u{…}', () => {
    const error = inputError(() =>
      quoteBuildingWarranty({
        ...BUILDING_WARRANTY,
        stage: 'Done\u202E\u0000"\\',
        'gdv\u200B\n': 1,
      } as never),
    );
    expect(error.issues).toEqual([
      {
        field: 'gdv\\u{200B}\\u{A}',
        message:
          'Is not a known field (expected "buildType", "stage", "units", "sumInsured", "gdv").',
      },
      {
        field: 'stage',
        message:
          'Must be one of "Not Started", "Part Complete", "Completed" (got "Done\\u{202E}\\u{0}\\"\\\\").',
      },
    ]);
  });

  it('shows the look-alike characters of a label that only looks right as \\u{…}', () => {
    // Cyrillic а (U+0430) in "Not Stаrted", fullwidth Ｃ in "Ｃonversion": printed as they are, the
    // message would quote a label indistinguishable from the one it says is expected.
    const error = inputError(() =>
      quoteBuildingWarranty({
        ...BUILDING_WARRANTY,
        buildType: '\uFF23onversion',
        stage: 'Not St\u0430rted',
      } as never),
    );
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'Must be one of "New Build", "Conversion" (got "\\u{FF23}onversion").',
      'Must be one of "Not Started", "Part Complete", "Completed" (got "Not St\\u{430}rted").',
    ]);
    // A caller's own field name or free text is still shown as written.
    expect(
      inputError(() => quoteBuildingWarranty({ ...BUILDING_WARRANTY, prénom: 1 } as never))
        .issues[0]?.field,
    ).toBe('prénom');
  });

  it('cuts a long value after 60 characters, counting an escape as the characters it shows', () => {
    const stage = `${'\u0007'.repeat(10)}${'s'.repeat(100)}`;
    const error = inputError(() => quoteBuildingWarranty({ ...BUILDING_WARRANTY, stage } as never));
    expect(error.issues[0]?.message).toBe(
      `Must be one of "Not Started", "Part Complete", "Completed" (got "${'\\u{7}'.repeat(10)}${'s'.repeat(10)}…").`,
    );
  });

  it('names ten unknown fields and counts the rest, so the message stays short', () => {
    const extra = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`extra${i}`, i]));
    const error = inputError(() => quoteContractorsAllRisks({ ...CAR, ...extra } as never));
    expect(error.issues).toHaveLength(11);
    expect(error.issues[9]?.field).toBe('extra9');
    expect(error.issues[10]).toEqual({
      field: 'input',
      message: 'Has 4,990 more fields that are not known.',
    });
  });

  it('never turns a huge BigInt or a Symbol with a huge description into text', () => {
    const error = inputError(() =>
      quoteBuildingWarranty({
        ...BUILDING_WARRANTY,
        units: 10n ** 100_000n,
        sumInsured: Symbol('\u202E'.repeat(100_000)),
      } as never),
    );
    expect(error.issues).toEqual([
      { field: 'units', message: 'Must be a number (got a BigInt of more than 30 digits).' },
      {
        field: 'sumInsured',
        message: `Must be a number (got Symbol(${'\\u{202E}'.repeat(7)}…)).`,
      },
    ]);
  });
});

// The global setup built the package into <tmp>/node_modules/@firm/pricing.
const projectDir = dirname(dirname(dirname(packageDir)));

describe('the ESM and CommonJS builds in one program', () => {
  it('recognise each other’s PricingInputError with instanceof', () => {
    const script = `
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import * as esm from '@firm/pricing';
const cjs = createRequire(process.cwd() + '/')('@firm/pricing');
const thrown = (pricing) => {
  try { pricing.quoteContractorsAllRisks({ propertyType: 'x', contractWorksValue: 1 }); }
  catch (error) { return error; }
};
const fromEsm = thrown(esm);
const fromCjs = thrown(cjs);
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
console.log(JSON.stringify({
  twoClasses: esm.PricingInputError !== cjs.PricingInputError,
  cjsErrorIsEsm: fromCjs instanceof esm.PricingInputError,
  esmErrorIsCjs: fromEsm instanceof cjs.PricingInputError,
  sameBuild: fromEsm instanceof esm.PricingInputError && fromCjs instanceof cjs.PricingInputError,
  isError: fromEsm instanceof Error && fromCjs instanceof Error,
  issues: fromCjs.issues.map((issue) => issue.field),
  name: fromCjs.name,
  // What loggers print: pino's "type" is constructor.name, console.error and inspect head the stack with it.
  constructorNames: [fromEsm.constructor.name, fromCjs.constructor.name, esm.PricingInputError.name],
  inspected: [inspect(fromEsm), inspect(fromCjs)].map((text) => text.split(':')[0]),
  others: [new Error('x'), new TypeError('x'), {}, null, 1, proxy, Object.create(null)]
    .some((value) => value instanceof esm.PricingInputError || value instanceof cjs.PricingInputError),
}));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: projectDir,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({
      twoClasses: true,
      cjsErrorIsEsm: true,
      esmErrorIsCjs: true,
      sameBuild: true,
      isError: true,
      issues: ['propertyType', 'contractWorksValue'],
      name: 'PricingInputError',
      constructorNames: ['PricingInputError', 'PricingInputError', 'PricingInputError'],
      inspected: ['PricingInputError', 'PricingInputError'],
      others: false,
    });
  });

  it('keeps the ordinary instanceof for a subclass', () => {
    class Other extends PricingInputError {}
    const plain = new PricingInputError([{ field: 'input', message: 'Is missing.' }]);
    expect(plain instanceof PricingInputError).toBe(true);
    expect(plain instanceof Other).toBe(false);
    expect(new Other([]) instanceof PricingInputError).toBe(true);
  });
});

describe('firm-pricing given hostile arguments', () => {
  const nines = '9'.repeat(400);

  it('quotes a number too large for a double as typed, shortened, not as Infinity', async () => {
    const run = await cli(
      'quote',
      'building-warranty',
      '--build-type',
      'New Build',
      '--stage',
      'Not Started',
      '--units',
      nines,
      '--sum-insured',
      `-${nines}`,
      '--gdv',
      '2,000,000.50',
    );
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      `error: --units: Must be between 1 and 250 (got ${'9'.repeat(60)}…).`,
      `error: --sum-insured: Must be between £500,000 and £50,000,000 (got -${'9'.repeat(59)}…).`,
      'error: --gdv: Must be a whole number of pounds (got 2,000,000.50).',
    ]);
  });

  it('quotes a term given as 400 nines as typed', async () => {
    const run = await cli(
      'quote',
      'btr',
      '--stage',
      'Completed',
      '--units',
      '200',
      '--sum-insured',
      '25000000',
      '--gdv',
      '40000000',
      '--anticipated-rental-income',
      '2500000',
      '--term-months',
      nines,
      '--programme-months',
      '18',
    );
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `error: --term-months: Must be one of 12, 24, 36 (got ${'9'.repeat(60)}…).`,
    );
  });

  it.each([
    ['--term-months', '24.000000000000001'],
    ['--units', '200.0000000000000001'],
    ['--sum-insured', '25,000,000.000000001'],
  ])(
    'refuses %s %s, a fraction too fine for a double, rather than pricing it as whole',
    async (flag, typed) => {
      const args = [
        ...['quote', 'btr', '--stage', 'Completed', '--units', '200', '--sum-insured', '25000000'],
        ...['--gdv', '40000000', '--anticipated-rental-income', '2500000', '--term-months', '24'],
        ...['--programme-months', '18'],
      ];
      args[args.indexOf(flag) + 1] = typed;
      const run = await cli(...args);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(
        `error: ${flag}: Must be a whole number (got ${typed}).`,
      );
    },
  );

  it.each([
    [['x'.repeat(100_000)], `error: Unknown command "${'x'.repeat(60)}…".`],
    [
      ['quote', '\u202Ecar\u0007'],
      'error: quote needs one of building-warranty|btr|car (got "\\u{202E}car\\u{7}").',
    ],
    [['quote', 'car', 'extra\u001B[2J'], 'error: Unexpected argument "extra\\u{1B}[2J".'],
    [
      ['quote', 'car', `--${'f'.repeat(1000)}\u200B=1`],
      `error: --${'f'.repeat(60)}… is not an option of car (expected --property-type, --contract-works-value).`,
    ],
    // (A process argument cannot hold NUL, so BEL stands for the control characters.)
    [['quote', 'car', '--json=\u0007'], 'error: --json takes no value.'],
    [['quote', 'car', '--a\u0007b'], 'error: --a\\u{7}b needs a value.'],
    [['quote', 'car', '--u\u202E=1', '--u\u202E=2'], 'error: --u\\u{202E} is given twice.'],
    [
      ['sweep', 'btr', '--loss-of-rent', `maybe\u2028${'y'.repeat(100)}`],
      `error: --loss-of-rent: Must be yes or no (got "maybe\\u{2028}${'y'.repeat(47)}…").`,
    ],
  ])('quotes what was typed short and printable: %#', async (args, line) => {
    const run = await cli(...args);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(line);
    for (const text of run.stderr.split('\n')) expect(text).not.toMatch(HIDDEN);
  });
});
