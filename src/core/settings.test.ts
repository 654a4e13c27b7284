import { describe, expect, it } from 'vitest';
import { isOnStep, SETTING_STEPS, stepsAround } from './settings';

describe('setting steps', () => {
  it('counts whole steps exactly, without float error', () => {
    expect(isOnStep(12.5, SETTING_STEPS.service_fee)).toBe(true);
    expect(isOnStep(0.3, SETTING_STEPS.service_fee)).toBe(true);
    expect(isOnStep(100, SETTING_STEPS.service_fee)).toBe(true);
    expect(isOnStep(12.55, SETTING_STEPS.service_fee)).toBe(false);
    expect(isOnStep(0.38, SETTING_STEPS.base_fee)).toBe(true);
    expect(isOnStep(0.375, SETTING_STEPS.base_fee)).toBe(false);
    expect(isOnStep(1.7005, SETTING_STEPS.usd_azn_rate)).toBe(true);
    expect(isOnStep(1.70005, SETTING_STEPS.usd_azn_rate)).toBe(false);
    expect(isOnStep(1e-7, SETTING_STEPS.base_fee)).toBe(false);
    expect(isOnStep(Number.NaN, '1')).toBe(false);
  });

  it('names the values on the step either side of one that is off it', () => {
    expect(stepsAround(12.55, '0.1')).toEqual(['12.5', '12.6']);
    expect(stepsAround(0.375, '0.01')).toEqual(['0.37', '0.38']);
  });
});
