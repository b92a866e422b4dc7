// The server's declared API for the offline package (scripts/), through package.json exports:
// small shared helpers.
export { seededRandom, seededSample } from '../util/random.js';
export { topK } from '../util/topK.js';
export { fuseZ, zScores } from '../util/zScores.js';
export { vmStatus } from '../util/procStatus.js';
