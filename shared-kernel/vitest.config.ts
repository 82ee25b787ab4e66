import { defineConfig } from 'vitest/config';

// Pure rules run in Node; store, storage, cookie and DOM tests opt into jsdom
// with a `// @vitest-environment jsdom` comment at the top of the file.
// TZ is neither UTC nor Europe/Bratislava, so tests prove that date and
// opening-hours rules do not depend on the machine's time zone.
export default defineConfig({
  test: {
    environment: 'node',
    isolate: false,
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    env: { TZ: 'America/Los_Angeles' },
  },
});
