// Where the offline package's tests find the repository, its committed models and the shared
// data: the server's own test paths, through its declared exports.
export { hasSharedData, modelsDir, repoRoot, sharedData, vocabFile } from 'mathsense-server/testing/modelPaths';
