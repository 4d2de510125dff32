/**
 * gpu_ram is typed in GB on the command line and sent in MB to the REST interface
 * (docs/cli.md). The factor is 1000, the marketplace's convention for RAM sizes.
 */
export const MB_PER_GB = 1000;

export function gpuRamGbToMb(gigabytes: number): number {
  if (!Number.isFinite(gigabytes) || gigabytes < 0) {
    throw new RangeError(`gpu_ram must be a non-negative number of GB, got ${gigabytes}`);
  }
  return Math.round(gigabytes * MB_PER_GB);
}

export function gpuRamMbToGb(megabytes: number): number {
  return megabytes / MB_PER_GB;
}
