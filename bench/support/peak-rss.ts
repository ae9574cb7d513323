import { readFileSync, writeFileSync } from 'node:fs';

/** The process's peak resident set so far, bytes. */
export const peakRss = () => process.resourceUsage().maxRSS * 1024;

/**
 * Linux resets the peak resident set (VmHWM, maxRSS) to the current one on `5` in clear_refs: the peak that
 * follows is the measured work's own, not what ran before. False where that is not possible.
 */
export function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return /VmHWM/.test(readFileSync('/proc/self/status', 'utf8'));
  } catch {
    return false;
  }
}
