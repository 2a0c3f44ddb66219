import { describe, expect, it } from 'vitest';
import { GUIDE_STAGES, GUIDE_TAGS, INSURANCES } from '../../options';
import { BUILD_COST_BANDS, UNITS_BANDS } from '../building-warranty';
import { FRAMEWORK_ROWS } from '../framework-rows';
import { PROFESSIONAL_INDEMNITY_BANDS, PUBLIC_LIABILITY_BANDS } from '../framework-limits';
import { insuranceGuide } from '../insurance-guide';
import { BUILDING_WARRANTY_LIMITS, BTR_LIMITS, CAR_LIMITS, FRAMEWORK_LIMITS } from '../../limits';

describe('rate tables', () => {
  it.each([
    ['BUILD_COST_BANDS', BUILD_COST_BANDS.map((b) => b.from)],
    ['UNITS_BANDS', UNITS_BANDS.map((b) => b.from)],
    ['PROFESSIONAL_INDEMNITY_BANDS', PROFESSIONAL_INDEMNITY_BANDS.map((b) => b.from)],
    ['PUBLIC_LIABILITY_BANDS', PUBLIC_LIABILITY_BANDS.map((b) => b.from)],
  ])('%s starts strictly ascend', (_, starts) => {
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(new Set(starts).size).toBe(starts.length);
  });

  it('every slider has a default within its range on its step grid', () => {
    const limits = [
      ...Object.values(BUILDING_WARRANTY_LIMITS),
      ...Object.values(BTR_LIMITS),
      ...Object.values(CAR_LIMITS),
      ...Object.values(FRAMEWORK_LIMITS),
    ];
    for (const limit of limits) {
      expect(limit.min).toBeLessThanOrEqual(limit.default);
      expect(limit.default).toBeLessThanOrEqual(limit.max);
      expect((limit.max - limit.min) % limit.step).toBe(0);
      expect((limit.default - limit.min) % limit.step).toBe(0);
    }
  });

  it('the framework has one row per insurance, in order, each ending in a catch-all rule', () => {
    expect(FRAMEWORK_ROWS.map((row) => row.insurance)).toEqual(INSURANCES);
    for (const row of FRAMEWORK_ROWS) {
      expect(row.requirement.at(-1)).not.toHaveProperty('when');
      expect(row.buyer.at(-1)).not.toHaveProperty('when');
      for (const rule of row.requirement) expect(rule.why.length).toBeGreaterThan(20);
    }
  });
});

describe('insuranceGuide', () => {
  it('has the 15 insurances in order, each with exactly the 5 stages', () => {
    expect(insuranceGuide.map((row) => row.insurance)).toEqual(INSURANCES);
    for (const row of insuranceGuide) expect(Object.keys(row.stages)).toEqual(GUIDE_STAGES);
  });

  it('fills each cell with one of the four tags or leaves it empty, and every insurance has a stage', () => {
    for (const row of insuranceGuide) {
      const cells = Object.values(row.stages);
      for (const cell of cells) expect(cell === null || GUIDE_TAGS.includes(cell)).toBe(true);
      expect(cells.some((cell) => cell !== null)).toBe(true);
    }
  });

  it.each([
    ['Contractors all risks (contract works)', 'Works', 'Either or Joint Policy'],
    ['Title / legal indemnity', 'Site Acquisition', 'Property Developer'],
    ['Completed / unsold buildings', 'Completion', 'Property Developer'],
    ['Employers liability', 'Works', 'Contractor'],
    ['Public liability', 'Works', 'Both needed'],
  ] as const)('shows %s at %s for %s', (insurance, stage, tag) => {
    expect(insuranceGuide.find((row) => row.insurance === insurance)?.stages[stage]).toBe(tag);
  });

  it('does not show contract works cover before the tender or after completion', () => {
    const car = insuranceGuide[0];
    expect(car?.stages['Site Acquisition']).toBeNull();
    expect(car?.stages.Planning).toBeNull();
    expect(car?.stages.Completion).toBeNull();
  });
});
