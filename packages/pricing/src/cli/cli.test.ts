import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  recommendInsuranceFramework,
  RATE_TABLE_VERSION,
} from '../index';
import { bin, cli } from '../__tests__/support';

const BUILDING_WARRANTY_ARGS = [
  'quote',
  'building-warranty',
  '--build-type',
  'New Build',
  '--stage',
  'Not Started',
  '--units',
  '3',
  '--sum-insured',
  '1000000',
  '--gdv',
  '2000000',
];

describe('firm-pricing quote', () => {
  it('prints a building warranty quote with its breakdown', async () => {
    const run = await cli(...BUILDING_WARRANTY_ARGS);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Build cost\s+1\.13%/);
    expect(run.stdout).toMatch(/Units\s+0\.05%/);
    expect(run.stdout).toMatch(/Total\s+1\.18%/);
    expect(run.stdout).toMatch(/Estimate\s+£11,800/);
    expect(run.stdout).toContain(RATE_TABLE_VERSION);
  });

  it('prints the library result with --json, reading 1,000,000 and 1_000_000 as numbers', async () => {
    const run = await cli(
      ...BUILDING_WARRANTY_ARGS.map((arg) => (arg === '1000000' ? '1,000,000' : arg)),
      '--json',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      quoteBuildingWarranty({
        buildType: 'New Build',
        stage: 'Not Started',
        units: 3,
        sumInsured: 1_000_000,
        gdv: 2_000_000,
      }),
    );
  });

  it('prices a BTR warranty with loss of rent, every line shown', async () => {
    const args = [
      '--stage',
      'Completed',
      '--units',
      '200',
      '--sum-insured',
      '25_000_000',
      '--gdv',
      '40000000',
    ];
    const lossOfRent = [
      '--anticipated-rental-income',
      '2500000',
      '--term-months',
      '36',
      '--programme-months',
      '18',
    ];
    const text = await cli('quote', 'btr', ...args, ...lossOfRent);
    const json = await cli('quote', 'btr', ...args, ...lossOfRent, '--json');
    const expected = quoteBtrWarranty({
      stage: 'Completed',
      units: 200,
      sumInsured: 25_000_000,
      gdv: 40_000_000,
      lossOfRent: { anticipatedRentalIncome: 2_500_000, termMonths: 36, programmeMonths: 18 },
    });
    expect(JSON.parse(json.stdout)).toEqual(expected);
    expect(text.stdout).toMatch(/Warranty\s+£340,000/);
    expect(text.stdout).toMatch(/Loss of rent\s+£84,000/);
    expect(text.stdout).toMatch(/IPT \(12%\)\s+£50,880/);
    expect(text.stdout).toMatch(/Total\s+£474,880/);
  });

  it('prices contractors all risks', async () => {
    const run = await cli(
      'quote',
      'car',
      '--property-type',
      'Commercial Conversion',
      '--contract-works-value=1000000',
      '--json',
    );
    expect(JSON.parse(run.stdout)).toEqual(
      quoteContractorsAllRisks({
        propertyType: 'Commercial Conversion',
        contractWorksValue: 1_000_000,
      }),
    );
  });

  it('recommends the insurance framework', async () => {
    const run = await cli(
      'recommend',
      'framework',
      '--property-type',
      'Commercial- BTR',
      '--contract-value',
      '30000000',
      '--has-basement',
      'yes',
      '--development-type',
      'Conversion',
      '--gdv',
      '45000000',
      '--contractor',
      'Developer as contractor',
      '--scheme-location',
      'City Centre',
      '--reinstatement',
      '5000000',
      '--has-flat-roof',
      'no',
      '--json',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      recommendInsuranceFramework({
        propertyType: 'Commercial- BTR',
        contractValue: 30_000_000,
        hasBasement: true,
        developmentType: 'Conversion',
        gdv: 45_000_000,
        contractor: 'Developer as contractor',
        schemeLocation: 'City Centre',
        reinstatement: 5_000_000,
        hasFlatRoof: false,
      }),
    );
  });

  it.each([
    ['4,999,999', 'at least £5,000,000'],
    ['5,000,000', '£10,000,000'],
    ['25,000,000', '£15,000,000'],
  ])(
    'says "at least" of the professional indemnity limit only in the lowest band (contract value %s)',
    async (contractValue, limit) => {
      const run = await cli(
        'recommend',
        'framework',
        '--property-type',
        'Residential',
        '--contract-value',
        contractValue,
        '--has-basement',
        'no',
        '--development-type',
        'Fit-Out',
        '--gdv',
        '9000000',
        '--contractor',
        'Developer as contractor',
        '--scheme-location',
        'Urban',
        '--reinstatement',
        '0',
        '--has-flat-roof',
        'no',
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`\\n  Professional indemnity +${limit}\\n`));
    },
  );

  it('prints every bad option and exits 2', async () => {
    const run = await cli(
      'quote',
      'building-warranty',
      '--build-type',
      'New build',
      '--units',
      '2.5',
      '--sum-insured',
      '499999',
      '--gdv',
      'lots',
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'error: --build-type: Must be one of "New Build", "Conversion" (got "New build").',
      'error: --stage: Is missing.',
      'error: --units: Must be a whole number (got 2.5).',
      'error: --sum-insured: Must be between £500,000 and £50,000,000 (got 499999).',
      'error: --gdv: Must be a number (got "lots").',
    ]);
  });

  it('reports a loss of rent given in part', async () => {
    const run = await cli(
      'quote',
      'btr',
      '--stage',
      'Completed',
      '--units',
      '50',
      '--sum-insured',
      '8000000',
      '--gdv',
      '20000000',
      '--term-months',
      '12',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: --anticipated-rental-income: Is missing.');
    expect(run.stderr).toContain('error: --programme-months: Is missing.');
  });

  it.each([
    [
      [
        'quote',
        'car',
        '--property-type',
        'New Build Commercial',
        '--contract-works-value',
        '500000',
        '--colour',
        'red',
      ],
      '--colour is not an option of car',
    ],
    [
      [...BUILDING_WARRANTY_ARGS, '--csv'],
      'error: quote prints text, or JSON with --json; --csv is for sweep.',
    ],
    [['recommend', 'framework', '--csv'], 'error: recommend prints text, or JSON with --json'],
    [['quote', 'boat'], 'quote needs one of building-warranty|btr|car'],
    [['price'], 'Unknown command "price"'],
    [[], 'No command given'],
    [['quote', 'car', '--units'], '--units needs a value'],
    // A lone `--` ends the options: what follows is a word, not an option (twenty-ninth session's probe).
    [['quote', 'car', '--', '--units', '3'], 'error: Unexpected argument "--units".'],
    [['constructor'], 'error: Unknown command "constructor".'],
    [['__proto__'], 'error: Unknown command "__proto__".'],
    [['toString', 'car'], 'error: Unknown command "toString".'],
  ])('refuses %j with a clear message and exits 2', async (args, message) => {
    const run = await cli(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain('native code');
  });

  it.each(['2,5', '1,00,000', '10,00', '1_0', '2_000,000'])(
    'refuses %s rather than guessing what its separators meant',
    async (units) => {
      const args = BUILDING_WARRANTY_ARGS.map((arg) => (arg === '3' ? units : arg));
      const run = await cli(...args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim()).toBe(`error: --units: Must be a number (got "${units}").`);
    },
  );

  it('prints its help with --help', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('firm-pricing quote building-warranty');
    expect(run.stdout).toContain('firm-pricing sweep');
  });
});

describe('firm-pricing sweep', () => {
  it('prints every contractors all risks step of every property type, priced as the library prices it', async () => {
    const run = await cli('sweep', 'car', '--csv');
    expect(run.code).toBe(0);
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(header).toBe(
      'property_type,contract_works_value,low_rate,medium_rate,high_rate,low,medium,high',
    );
    expect(rows).toHaveLength(4 * 991);
    for (const row of rows) {
      const [propertyType, value, ...rest] = row.split(',');
      const quote = quoteContractorsAllRisks({
        propertyType,
        contractWorksValue: Number(value),
      } as never);
      expect(rest.map(Number)).toEqual([
        quote.rates.low,
        quote.rates.medium,
        quote.rates.high,
        quote.low,
        quote.medium,
        quote.high,
      ]);
    }
    expect(run.stderr).toContain(`3964 rows priced with rate tables ${RATE_TABLE_VERSION}`);
  });

  it('fixes the dimensions given as options', async () => {
    const run = await cli(
      'sweep',
      'building-warranty',
      '--build-type',
      'Conversion',
      '--stage',
      'Completed',
      '--units',
      '6',
    );
    const rows = run.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(991);
    expect(rows[0]).toBe('Conversion,Completed,6,500000,1.13,0.25,0.5,0.06,1.94,9700');
    expect(rows.at(-1)).toBe('Conversion,Completed,6,50000000,0.83,0.25,0.5,0.06,1.64,820000');
  });

  it('counts one row as one row, and takes the words after -- as words', async () => {
    const one = await cli(
      'sweep',
      'car',
      '--property-type',
      'New Build Commercial',
      '--contract-works-value',
      '500000',
    );
    expect(one.code).toBe(0);
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(one.stderr).toContain(`: 1 row priced with rate tables ${RATE_TABLE_VERSION}`);
    const ended = await cli('sweep', 'car', '--');
    expect(ended.code).toBe(0);
    expect(ended.stderr).toContain('3964 rows priced');
  });

  it('sweeps the BTR warranty without loss of rent when asked', async () => {
    const run = await cli('sweep', 'btr', '--stage', 'Part Complete', '--loss-of-rent', 'no');
    const rows = run.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(685);
    expect(rows[0]).toBe('Part Complete,8000000,,,,1.16,,92800,0,92800,11136,103936');
  });

  it('refuses --loss-of-rent no beside a loss of rent option instead of printing no rows', async () => {
    const run = await cli('sweep', 'btr', '--loss-of-rent', 'no', '--term-months', '12');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(
      'error: --loss-of-rent no leaves out loss of rent; do not also give --anticipated-rental-income, --term-months, --programme-months.',
    );
  });

  it('refuses a bad fixed value before printing anything', async () => {
    const run = await cli('sweep', 'car', '--contract-works-value', '100');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'error: --contract-works-value: Must be between £500,000 and £50,000,000',
    );
  });

  it('streams the whole building warranty grid: 2 × 3 × 250 × 991 rows', async () => {
    const child = spawn(process.execPath, [bin, 'sweep', 'building-warranty', '--csv']);
    let lines = 0;
    let last = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) lines += 1;
      last = (last + chunk).slice(-200);
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(lines).toBe(1 + 2 * 3 * 250 * 991);
    expect(last.trimEnd().split('\n').at(-1)).toBe(
      'Conversion,Completed,250,50000000,0.83,0.25,0.5,0,1.58,790000',
    );
  });
});

describe('firm-pricing writing to a pipe or file that fails', () => {
  const exit = (child: ReturnType<typeof spawn>) =>
    new Promise<number | null>((resolve) => child.on('close', resolve));

  it('stops quietly with status 0 when the reader closes stdout (| head -c1)', async () => {
    const child = spawn(process.execPath, [bin, 'sweep', 'building-warranty']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    expect(await exit(child)).toBe(0);
    expect(stderr).toBe('');
  });

  it('finishes with status 0 when nobody reads stderr', async () => {
    const child = spawn(process.execPath, [bin, 'sweep', 'car']);
    child.stderr.destroy();
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines += 1;
    });
    expect(await exit(child)).toBe(0);
    expect(lines).toBe(1 + 4 * 991);
  });

  it.runIf(existsSync('/dev/full'))(
    'says in one line that the output could not be written, and exits 1',
    async () => {
      const full = openSync('/dev/full', 'w');
      try {
        const child = spawn(process.execPath, [bin, 'sweep', 'car'], {
          stdio: ['ignore', full, 'pipe'],
        });
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        expect(await exit(child)).toBe(1);
        expect(stderr).toBe(
          'firm-pricing: cannot write the output: ENOSPC: no space left on device, write\n',
        );
      } finally {
        closeSync(full);
      }
    },
  );
});
