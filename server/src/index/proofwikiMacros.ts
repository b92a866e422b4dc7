// ProofWiki's notation macros: the table and its expansion live in syntax/proofwikiMacros.ts;
// features/ reads them from here.
export { expandProofWikiMacros, PROOFWIKI_MACROS } from '../syntax/proofwikiMacros.js';
