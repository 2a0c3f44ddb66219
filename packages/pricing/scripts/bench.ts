/**
 * Throughput benchmark: quotes per second of each pricing function and, in the same run, a
 * plain-float loop of the building warranty formula as the baseline. Prints the medians of several
 * rounds and the ratio, and writes them into docs/benchmarks.md between the pricing markers.
 *
 *   pnpm --filter @firm/pricing bench            measure and update docs/benchmarks.md
 *   pnpm --filter @firm/pricing bench --no-write measure only
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { format as prettierFormat, resolveConfig } from 'prettier';
import { groupThousands } from '../src/core/group-thousands';
import {
  BUILDING_WARRANTY_LIMITS,
  BUILD_TYPES,
  BTR_TERMS,
  CAR_PROPERTY_TYPES,
  CONTRACTORS,
  DEVELOPMENT_TYPES,
  FRAMEWORK_PROPERTY_TYPES,
  SCHEME_LOCATIONS,
  STAGES,
  quoteBtrWarranty,
  quoteBuildingWarranty,
  quoteContractorsAllRisks,
  recommendInsuranceFramework,
  type BtrWarrantyInput,
  type BuildingWarrantyInput,
  type ContractorsAllRisksInput,
  type InsuranceFrameworkInput,
} from '../src/index';

const ROUNDS = 7;
const TARGET_MS = 300;
const INPUTS = 4096;
const DOC = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
const START = '<!-- pricing:start -->';
const END = '<!-- pricing:end -->';

/** A small deterministic generator so every run prices the same inputs. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}
const random = lcg(2026);
const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
const pick = <T>(options: readonly T[]): T => options[int(0, options.length - 1)] as T;

const buildingWarrantyInputs: BuildingWarrantyInput[] = Array.from({ length: INPUTS }, () => ({
  buildType: pick(BUILD_TYPES),
  stage: pick(STAGES),
  units: int(1, 250),
  sumInsured: int(500_000, 50_000_000),
  gdv: int(500_000, 100_000_000),
}));
const btrInputs: BtrWarrantyInput[] = Array.from({ length: INPUTS }, (_, i) => ({
  stage: pick(STAGES),
  units: int(50, 500),
  sumInsured: int(8_000_000, 350_000_000),
  gdv: int(20_000_000, 500_000_000),
  ...(i % 2 === 0
    ? {
        lossOfRent: {
          anticipatedRentalIncome: int(1_000_000, 35_000_000),
          termMonths: pick(BTR_TERMS),
          programmeMonths: 6 * int(0, 8),
        },
      }
    : {}),
}));
const carInputs: ContractorsAllRisksInput[] = Array.from({ length: INPUTS }, () => ({
  propertyType: pick(CAR_PROPERTY_TYPES),
  contractWorksValue: int(500_000, 50_000_000),
}));
const frameworkInputs: InsuranceFrameworkInput[] = Array.from({ length: INPUTS }, () => ({
  propertyType: pick(FRAMEWORK_PROPERTY_TYPES),
  contractValue: int(500_000, 50_000_000),
  hasBasement: random() < 0.5,
  developmentType: pick(DEVELOPMENT_TYPES),
  gdv: int(500_000, 50_000_000),
  contractor: pick(CONTRACTORS),
  schemeLocation: pick(SCHEME_LOCATIONS),
  reinstatement: int(0, 50_000_000),
  hasFlatRoof: random() < 0.5,
}));

// The baseline: the same building warranty formula in plain doubles, no validation, no result
// object. It is wrong on about 4% of inputs (500,000 × 2.01 / 100 floors to 10,049): that is why
// the library does not do this, and why it is only a speed yardstick.
function floatEstimate(input: BuildingWarrantyInput): number {
  const s = input.sumInsured;
  const buildCost =
    s < 500_000
      ? 1.23
      : s < 5_000_000
        ? 1.13
        : s < 20_000_000
          ? 1.03
          : s < 25_000_000
            ? 0.93
            : 0.83;
  const u = input.units;
  const units = u <= 1 ? 0.03 : u <= 5 ? 0.05 : u <= 10 ? 0.06 : u <= 50 ? 0.05 : 0;
  const buildType = input.buildType === 'Conversion' ? 0.25 : 0;
  const stage = input.stage === 'Completed' ? 0.5 : input.stage === 'Part Complete' ? 0.25 : 0;
  const total = buildCost + buildType + stage + units;
  return Math.floor((s * total) / 100);
}

interface Case {
  readonly name: string;
  readonly run: (iterations: number) => number;
}

function loop<T>(
  inputs: readonly T[],
  price: (input: T) => number,
): (iterations: number) => number {
  return (iterations) => {
    let checksum = 0;
    for (let i = 0; i < iterations; i += 1) checksum += price(inputs[i & (INPUTS - 1)] as T);
    return checksum;
  };
}

const CASES: readonly Case[] = [
  { name: 'float loop (baseline)', run: loop(buildingWarrantyInputs, floatEstimate) },
  {
    name: 'quoteBuildingWarranty',
    run: loop(buildingWarrantyInputs, (input) => quoteBuildingWarranty(input).estimate),
  },
  { name: 'quoteBtrWarranty', run: loop(btrInputs, (input) => quoteBtrWarranty(input).total) },
  {
    name: 'quoteContractorsAllRisks',
    run: loop(carInputs, (input) => quoteContractorsAllRisks(input).high),
  },
  {
    name: 'recommendInsuranceFramework',
    run: loop(frameworkInputs, (input) => recommendInsuranceFramework(input).rows.length),
  },
];

let sink = 0;

/** Operations per second of one timed run of about TARGET_MS. */
function measure(testCase: Case, iterations: number): number {
  const start = process.hrtime.bigint();
  sink += testCase.run(iterations);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  return iterations / elapsed;
}

function calibrate(testCase: Case): number {
  let iterations = 1_000;
  for (;;) {
    const start = process.hrtime.bigint();
    sink += testCase.run(iterations);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (ms > 50) return Math.max(1_000, Math.round((iterations * TARGET_MS) / ms));
    iterations *= 4;
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const loadAtStart = loadavg()[0] ?? 0;
const iterations = new Map(CASES.map((testCase) => [testCase, calibrate(testCase)]));
const samples = new Map<Case, number[]>(CASES.map((testCase) => [testCase, []]));
// Interleave the cases round by round so a slow moment of the machine hits them all alike.
for (let round = 0; round < ROUNDS; round += 1) {
  for (const testCase of CASES) {
    samples.get(testCase)?.push(measure(testCase, iterations.get(testCase) as number));
  }
}

const results = CASES.map((testCase) => ({
  name: testCase.name,
  perSecond: median(samples.get(testCase) as number[]),
}));
const baseline = results[0]?.perSecond as number;
const buildingWarranty = results[1]?.perSecond as number;
const ratio = buildingWarranty / baseline;

const format = (n: number): string =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0);
const table = [
  '| Case | Quotes per second (median) | × float loop |',
  '|---|---:|---:|',
  ...results.map(
    (result) =>
      `| ${result.name} | ${format(result.perSecond)} | ${(result.perSecond / baseline).toFixed(3)} |`,
  ),
].join('\n');

const verdict = ratio >= 0.1 ? 'meets' : 'misses';
// How often the float formula is wrong, over the whole slider grid (every step of every option).
let gridSize = 0;
let floatWrong = 0;
{
  const { units, sumInsured } = BUILDING_WARRANTY_LIMITS;
  for (const buildType of BUILD_TYPES)
    for (const stage of STAGES)
      for (let u = units.min; u <= units.max; u += units.step)
        for (let s = sumInsured.min; s <= sumInsured.max; s += sumInsured.step) {
          const input = { buildType, stage, units: u, sumInsured: s, gdv: 500_000 };
          gridSize += 1;
          if (floatEstimate(input) !== quoteBuildingWarranty(input).estimate) floatWrong += 1;
        }
}

const section = [
  START,
  '## @firm/pricing',
  '',
  'Written by `pnpm --filter @firm/pricing bench` (`packages/pricing/scripts/bench.ts`): the median of',
  `${ROUNDS} interleaved rounds of about ${TARGET_MS} ms per case, over ${INPUTS} fixed pseudo-random inputs per`,
  'function, in one Node process. The baseline is a plain-float loop of the building warranty formula',
  `(no validation, no result object). It is only a yardstick: over the slider grid (every step of`,
  `every option, ${groupThousands(gridSize)} quotes) it floors a pound low on ${groupThousands(floatWrong)}`,
  `(${((100 * floatWrong) / gridSize).toFixed(1)}%), which is why the library computes in integers.`,
  '',
  table,
  '',
  `Building warranty quote ÷ float loop: **${ratio.toFixed(3)}×** (target ≥ 0.10×: ${verdict} it).`,
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadAtStart.toFixed(1)} at the start (absolute figures fall on a busy machine; the ratio, measured in the same interleaved rounds, holds better).`,
  END,
].join('\n');

console.log(table);
console.log(`\nratio quoteBuildingWarranty / float loop: ${ratio.toFixed(3)}x (target >= 0.10x)`);
if (sink === 0.5) console.log('');

if (!process.argv.includes('--no-write')) {
  const current = existsSync(DOC)
    ? readFileSync(DOC, 'utf8')
    : '# Benchmarks\n\nThroughput figures of the parts of the portal, each section written by its own script.\n';
  const startAt = current.indexOf(START);
  const endAt = current.indexOf(END);
  const next =
    startAt >= 0 && endAt > startAt
      ? `${current.slice(0, startAt)}${section}${current.slice(endAt + END.length)}`
      : `${current.trimEnd()}\n\n${section}\n`;
  // Formatted like every other Markdown file of the repository, so `pnpm format:check` stays green.
  const options = (await resolveConfig(DOC)) ?? {};
  writeFileSync(DOC, await prettierFormat(next, { ...options, parser: 'markdown' }));
  console.log(`wrote ${DOC}`);
}
