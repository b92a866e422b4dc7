// The server's declared API for the offline package (scripts/), through package.json exports:
// the index: its format, loading, retrieval and the rankers' run-time halves.
export { unitVotes, votesFromSimilarity } from '../index/citationVotes.js';
export { CiterProfiles, citerSourceOf } from '../index/citerProfiles.js';
export { analyseMany } from '../index/equationAnalysis.js';
export { analyserSignature, type EquationFeatures, equationFeatures, FEATURES_VERSION, formulaEncoderInput, shapeOf } from '../index/equationFeatures.js';
export { fingerprintMatch, rankEquations, TokenTable, W_ENCODER, W_FINGERPRINT, W_STRUCTURE } from '../index/equationRanking.js';
export { IndexEquations } from '../index/equationStore.js';
export { EQUATION_FILES, EQUATIONS_LAYOUT, type EquationsHeader, type KeysFile } from '../index/equationsFormat.js';
export { ENTRY_KINDS, type EntryKind, FILES, headerPath, INDEX_CONTENT_VERSION, INDEX_FORMAT, INDEX_FORMAT_VERSION, type IndexEntry, IndexError, type IndexHeader, type IndexSource, quantise } from '../index/format.js';
export { indexProofRanker, rankIndexProofs, statementSimilarity } from '../index/indexHubs.js';
export { type MlpModel, mlpScore, readsMlp } from '../index/mlpRanker.js';
export { namedIds, prepareNames, writeNames, NAMES_FILE } from '../index/namedResults.js';
export { writeDigest } from '../index/digest.js';
export { defaultIndexDir, sharedDataDir } from '../index/paths.js';
export { packageRoot } from '../util/packageRoot.js';
export { HUB_BACKGROUND, HUB_NEIGHBOURS, type Hubs, loadProofRanker, PROOF_FEATURES, proofFeatureColumns, type ProofRankerModel, proofScores, rankWithHubs } from '../index/proofRanker.js';
export { proofWikiEquations } from '../index/proofwikiEquations.js';
export { expandProofWikiMacros } from '../syntax/proofwikiMacros.js';
export { type LinearModel, loadReferenceRankers, NAME_FEATURES, POSITION_FEATURES, positionFeatures, type ReferenceRankers, referenceRow, referenceScore, type ResultPosition, SHARED_FEATURES, TEXT_FEATURES, type TextModel, usableRankers, withoutNames } from '../index/referenceRanker.js';
export { nameSignals, textSignals } from '../index/referenceSignals.js';
export { recoverReferences, titleTable } from '../index/references.js';
export { refsIn, resultName } from '../index/resultNames.js';
export { candidateProofs, citationsOf, citerMatch, disambiguate, QUERY_TOKENS, search, suggestCitations, timesCited, withCitationVotes } from '../index/retrieval.js';
export { dot, type SoftmaxGroup } from '../index/softmaxRanker.js';
export { FIRST_TERM_ID, LoadedIndex } from '../index/store.js';
export { contextWords, definedWords, featureRows, rankerChoice, TERM_FEATURES, termChoice, type TermCosine, termFeatures, type TermRankerModel, termScores, titleParts, usableTermRanker } from '../index/termRanker.js';
export { termTitle, titleText } from '../index/termTitles.js';
export { type Logistic, loadRelevance, logisticProbability, RELEVANCE_FEATURES, RELEVANCE_FILE, RELEVANCE_TASKS, relevanceOf, relevanceRows, type RelevanceModel, type RelevanceTask, type RelevanceTaskModel, usableRelevance, withRelevance } from '../index/relevance.js';
