import { startArbiterUhpServer } from './support/arbiter-uhp-server.ts';

const server = await startArbiterUhpServer(['k1'], { offlineChunkDelayMs: Number(process.argv[2] ?? 30) });
console.log(server.baseURL);
