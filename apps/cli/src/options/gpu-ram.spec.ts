import { gpuRamGbToMb, gpuRamMbToGb } from './gpu-ram';
import { gpuRamOption } from './validation';

describe('gpu_ram units (GB on the command line, MB on the wire)', () => {
  it('converts GB to whole MB', () => {
    expect(gpuRamGbToMb(24)).toBe(24_000);
    expect(gpuRamGbToMb(0.5)).toBe(500);
    expect(gpuRamGbToMb(10.2345)).toBe(10_235);
    expect(gpuRamMbToGb(81_920)).toBe(81.92);
  });

  it('refuses negative and non-finite sizes', () => {
    expect(() => gpuRamGbToMb(-1)).toThrow(RangeError);
    expect(() => gpuRamGbToMb(Number.NaN)).toThrow(RangeError);
  });

  it('is what a gpu_ram option parses to', () => {
    expect(gpuRamOption('48')).toBe(48_000);
    expect(() => gpuRamOption('48GB')).toThrow('Expected a number.');
  });
});
