import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RATE_TABLE_VERSION } from '../../api/rate-table-version';
import { RATE_TABLES } from '../../tables/all-tables';
import { RATES_PUBLISHED } from '../../tables/published';
import { canonicalJson, computeRateTableVersion, fnv1a64 } from '../rate-table-version';

/** A deep, mutable copy of the tables. */
const copyOfTables = () =>
  JSON.parse(JSON.stringify(RATE_TABLES)) as typeof RATE_TABLES & Record<string, never>;

describe('RATE_TABLE_VERSION', () => {
  it('is the publication date and a 12-digit hash of the tables', () => {
    expect(RATE_TABLE_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}\.[0-9a-f]{12}$/);
    expect(RATE_TABLE_VERSION.startsWith(`${RATES_PUBLISHED}.`)).toBe(true);
    expect(computeRateTableVersion(copyOfTables(), RATES_PUBLISHED)).toBe(RATE_TABLE_VERSION);
  });

  it('changes when a rate changes', () => {
    const tables = copyOfTables();
    (tables.buildingWarranty.buildCostBands[1] as { rate: string }).rate = '1.14';
    expect(computeRateTableVersion(tables, RATES_PUBLISHED)).not.toBe(RATE_TABLE_VERSION);
  });

  it('changes when a band edge, a limit, a framework rule or a guide cell changes', () => {
    const mutations: ((tables: ReturnType<typeof copyOfTables>) => void)[] = [
      (t) => void ((t.buildingWarranty.unitsBands[2] as { from: number }).from = 7),
      (t) => void ((t.btrWarranty.limits.sumInsured as { max: number }).max = 400_000_000),
      (t) => void ((t.btrWarranty as { iptRate: string }).iptRate = '12.5'),
      (t) =>
        void ((t.insuranceFramework.rows[5]?.requirement[0] as { required: string }).required =
          'Optional'),
      (t) =>
        void ((t.insuranceGuide[0]?.stages as Record<string, string | null>).Planning =
          'Contractor'),
    ];
    const versions = mutations.map((mutate) => {
      const tables = copyOfTables();
      mutate(tables);
      return computeRateTableVersion(tables, RATES_PUBLISHED);
    });
    for (const version of versions) expect(version).not.toBe(RATE_TABLE_VERSION);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('does not depend on the order keys are written in', () => {
    expect(canonicalJson({ b: 1, a: [{ d: '2', c: null }] })).toBe(
      '{"a":[{"c":null,"d":"2"}],"b":1}',
    );
  });

  it('hashes with 64-bit FNV-1a', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('equals the BigInt definition of 64-bit FNV-1a for any text', () => {
    const reference = (text: string) => {
      let hash = 0xcbf29ce484222325n;
      for (const byte of new TextEncoder().encode(text)) {
        hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
      }
      return hash.toString(16).padStart(16, '0');
    };
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(fnv1a64(text)).toBe(reference(text));
      }),
      { numRuns: 2_000 },
    );
    expect(fnv1a64(canonicalJson(RATE_TABLES))).toBe(reference(canonicalJson(RATE_TABLES)));
  });
});

describe('properties', () => {
  it('should change the version when any building warranty rate changes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 9_999 }),
        (band, bump) => {
          const tables = copyOfTables();
          const entry = tables.buildingWarranty.buildCostBands[band] as { rate: string };
          entry.rate = String((Number(entry.rate) * 10_000 + bump) / 10_000);
          expect(computeRateTableVersion(tables, RATES_PUBLISHED)).not.toBe(RATE_TABLE_VERSION);
        },
      ),
    );
  });
});
