import { pageMix } from './page-load.ts';
import { runScenarios } from './api-load.ts';
const base = 'http://localhost:4750';
const mix = await pageMix(base);
runScenarios({ base, pid: Number(process.argv[2]), dataDir: '', stop: async () => {} }, [{ name: 'pages', paths: mix.paths, headers: { 'accept-encoding': 'br, gzip' } }], { connections: 20, seconds: 8 });
