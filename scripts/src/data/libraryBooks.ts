// The latex-wild books a library of books is made of (evalLibrary measures it, trainRelevance
// fits the library's relevance on it): one book per paper.
export const LIBRARY_BOOKS = ['lebl-basic-analysis', 'lebl-several-complex', 'ernst-intro-to-proof', 'art-of-linear-algebra', 'milewski-category-theory'] as const;
