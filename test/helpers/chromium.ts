// Debian's chromium for the browser tests: found at MCPLD_CHROMIUM, /usr/bin/chromium or /usr/bin/chromium-browser.
// Without it the tests skip LOUDLY on a developer's machine and fail under CI (`.ci/run` installs it).
import { existsSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';

function chromiumPath(): string | undefined {
  return [process.env['MCPLD_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => p !== undefined && p !== '' && existsSync(p),
  );
}

/** The browser, or undefined (after saying so loudly) when there is none and CI is not set. */
export async function launchChromium(): Promise<Browser | undefined> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    const message =
      'chromium not found (MCPLD_CHROMIUM, /usr/bin/chromium): install it with `apt-get install -y chromium` to run the browser tests';
    if (process.env['CI']) throw new Error(`${message}; CI needs them`);
    console.warn(`\n  !!! SKIPPED: ${message}\n`);
    return undefined;
  }
  // As root (CI) Chromium needs --no-sandbox; the background-networking flags keep it from calling home.
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
      '--window-size=1400,900',
    ],
    defaultViewport: { width: 1400, height: 900 },
  });
}
