// Preloaded (`node --import`) into the CLI process the converter benchmark times: at exit, writes the process's
// peak RSS as one JSON line to file descriptor 3 when the benchmark opened it. Does nothing else.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    writeSync(3, JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }) + '\n');
  } catch {
    // fd 3 not open: not run by the benchmark
  }
});
